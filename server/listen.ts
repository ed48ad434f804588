/**
 * Listening: the h3 app through h3's Node handler, served by listhen, which finds the port, gives
 * the URL and closes gracefully (in-flight requests finish, idle connections close). listhen's own
 * signal handling exits at once, so it is off; serve() closes on SIGINT/SIGTERM instead.
 */
import { toNodeHandler } from "h3/node";
import { listen } from "listhen";
import { createApp, type AppOptions } from "./app.ts";
import { connectRedisStore } from "./redis-store.ts";

export interface ServerOptions extends Omit<AppOptions, "redis"> {
  /** 0: any free port. Any other port is that port, or an error when it is taken. */
  port: number;
  host: string;
  /** Redis for the limits and the match cache (`redis://…`), connected here and closed with the server. */
  redisUrl?: string;
}

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const redis = options.redisUrl ? await connectRedisStore(options.redisUrl) : undefined;
  const listener = await listen(toNodeHandler(createApp({ ...options, redis })), {
    hostname: options.host,
    // Port discovery, as listhen hands it to get-port-please: port 0 is any port the OS has free
    // (servers started one after another never share one); any other port is that one or an
    // error, never another (an explicit port gets no alternative range, and no random fallback).
    port: { port: options.port, random: options.port === 0 },
    // A production server: no browser, clipboard or QR code; public unless the host is a loopback one.
    isProd: true,
    showURL: false,
    autoClose: false,
  }).catch((error: unknown) => {
    redis?.close();
    throw error;
  });
  // get-port-please leaves out the ports browsers refuse (6000, 6665–6669, 10080…) and, with none
  // left to try, takes 3000: an explicit port it would not try must fail here rather than move.
  if (options.port !== 0 && listener.address.port !== options.port) {
    await listener.close();
    redis?.close();
    throw new Error(`port ${options.port} is one that browsers refuse; choose another`);
  }
  // listhen leaves a bare colon where it omits port 80 ("http://host:/"); the URL parser drops it.
  const close = async () => {
    await listener.close();
    redis?.close();
  };
  return { url: new URL(listener.url).href, close };
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
