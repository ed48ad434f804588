/**
 * Listening: the h3 app through h3's Node handler, served by listhen. listhen's own signal
 * handling exits at once, so it is off; we close gracefully (in-flight requests finish) instead.
 */
import { toNodeHandler } from "h3/node";
import { listen } from "listhen";
import { createApp, type AppOptions } from "./app.ts";

export interface ServerOptions extends AppOptions {
  port: number;
  host: string;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const app = createApp(options);
  const listener = await listen(toNodeHandler(app), {
    // listhen reads 0 as "3000 or the next free port"; we mean what the OS means: any free port,
    // so that servers started one after another (tests, benchmarks) never share an address.
    port: options.port === 0 ? { port: 0, random: true } : options.port,
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

/** Starts the server for a command line: prints the URL, closes gracefully on SIGINT/SIGTERM. */
export async function serve(options: ServerOptions): Promise<void> {
  const server = await startServer(options);
  console.log(`serving ${options.dist} at ${server.url}`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return process.exit(1);
    closing = true;
    console.log(`${signal}: closing (in-flight requests finish first)`);
    server.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once("SIGINT", () => shutdown("SIGINT"));
  process.once("SIGTERM", () => shutdown("SIGTERM"));
}
