/**
 * Runs route tests two ways, like h3's own suite: in-process through `app.request`, and over
 * HTTP against a real listening server.
 */
import type { H3 } from "h3";
import { createApp, type AppOptions } from "../../server/app.ts";
import { startServer, type ServerOptions } from "../../server/listen.ts";

export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

export interface Client {
  name: string;
  fetch: Fetcher;
  close(): Promise<void>;
}

/** `options` are the app's (rate limits, proxy trust); the listening server gets the same. */
export async function createClient(kind: "in-process" | "listening server", dist: string, options: Omit<AppOptions, "dist"> = {}): Promise<Client> {
  if (kind === "in-process") {
    const app: H3 = createApp({ ...options, dist });
    return { name: kind, fetch: async (path, init) => app.request(path, init), close: async () => {} };
  }
  return startClient(kind, { ...options, dist, port: 0, host: "127.0.0.1" });
}

/** A real listening server as a client: also for tests of several servers side by side (sharing Redis). */
export async function startClient(name: string, options: ServerOptions): Promise<Client> {
  const server = await startServer(options);
  return {
    name,
    fetch: (path, init) => fetch(new URL(path, server.url), init),
    close: async () => void (await server.close()),
  };
}

export const CLIENT_KINDS = ["in-process", "listening server"] as const;
