/**
 * Listening: the h3 app through h3's Node handler, served by listhen. listhen's own signal
 * handling exits at once, so it is off; we close gracefully (in-flight requests finish) instead.
 */
import { toNodeHandler } from "h3/node";
import { listen } from "listhen";
import { createApp } from "./app.ts";

export interface ServerOptions {
  dist: string;
  port: number;
  host: string;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const app = createApp({ dist: options.dist });
  const listener = await listen(toNodeHandler(app), {
    port: options.port,
    hostname: options.host,
    showURL: false,
    qr: false,
    isProd: true,
    autoClose: false,
    public: options.host !== "localhost" && options.host !== "127.0.0.1" && options.host !== "::1",
  });
  const port = listener.address.port;
  if (options.port !== 0 && port !== options.port) {
    await listener.close();
    throw new Error(`port ${options.port} is in use`);
  }
  const shownHost = options.host.includes(":") ? `[${options.host}]` : options.host;
  return { url: `http://${shownHost}:${port}/`, close: () => listener.close() };
}
