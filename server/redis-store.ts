/**
 * The Redis connection through which every server of a deployment shares its per-client state
 * (DESIGN "More than one server"): the rate-limit windows (server/redis-rate-limit.ts) and the
 * fingerprint answer cache (server/redis-match-cache.ts). Without --redis both stay in memory.
 *
 * Redis going away must not take the server with it, nor slow it down for long. Every command
 * answers within REDIS_TIMEOUT_MS or fails, and a failed command gives the caller's fallback:
 * nothing waits for Redis to come back, and nothing is sent again after a reconnect (a rate-limit
 * increment resent later would count one request twice). The connection keeps retrying in the
 * background. The first failure of an outage is logged, once, not per request; so is the return.
 */
import { once } from "node:events";
import type { Redis } from "ioredis";

/**
 * How long a request waits for Redis: it answers in well under a millisecond on a local network,
 * so a second means it has stalled or gone, and every request in flight then pays at most this.
 */
export const REDIS_TIMEOUT_MS = 1000;
/** How long the first connection may take before the server starts without Redis. */
const CONNECT_TIMEOUT_MS = 3000;
/** Reconnection attempts back off to at most one every 2 s: an outage ends for us within 2 s of Redis's. */
const MAX_RETRY_DELAY_MS = 2000;
/** Every key this project writes starts with this, so one Redis can serve other applications too. */
export const REDIS_KEY_PREFIX = "spamcheck:";

export interface RedisStore {
  /** Where Redis is, for logs: host and port, never the credentials in the URL. */
  readonly where: string;
  /** The command's answer, or `fallback()` when Redis cannot give one (down, stalled, refusing). */
  run<T>(command: (client: Redis) => Promise<T>, fallback: () => T): Promise<T>;
  /** Disconnects at once: nothing is waiting for an answer that matters. */
  close(): void;
}

export interface RedisLog {
  info(line: string): void;
  warn(line: string): void;
}

const CONSOLE_LOG: RedisLog = { info: (line) => console.log(line), warn: (line) => console.error(line) };

/**
 * Connects to `url` and resolves once Redis answers or the first attempt has failed. Redis
 * unavailable at start is not fatal: the server answers with the fallbacks (and says so) and
 * shares its state from the moment Redis is there. When Redis is up, the first request already
 * counts there.
 */
export async function connectRedisStore(url: string, options: { log?: RedisLog } = {}): Promise<RedisStore> {
  const log = options.log ?? CONSOLE_LOG;
  const where = describeRedisUrl(url);
  // Loaded only here: a server without --redis does not pay for the client at start (~50 ms).
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: REDIS_TIMEOUT_MS,
    // A command written to a socket that then stays silent (Redis stopped, the network cut)
    // drops the connection, so that the next requests fail at once instead of each timing out.
    socketTimeout: REDIS_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, MAX_RETRY_DELAY_MS),
  });
  let up: boolean | null = null;
  let closing = false;
  const markUp = () => {
    if (up === true) return;
    log.info(up === null ? `redis: rate limits and the match cache are shared through ${where}` : `redis: ${where} is back; rate limits and the match cache are shared again`);
    up = true;
  };
  const markDown = (error: unknown) => {
    if (up === false || closing) return;
    up = false;
    log.warn(`redis: ${where} is unavailable (${describeError(error)}); until it is back, this server counts rate limits in its own memory and does not cache match answers`);
  };
  client.on("error", markDown);
  client.on("close", () => markDown("connection closed"));
  client.on("ready", markUp);
  await once(client, "ready").catch(() => {});

  return {
    where,
    async run(command, fallback) {
      if (client.status !== "ready") {
        markDown(`connection ${client.status}`);
        return fallback();
      }
      try {
        const answer = await command(client);
        markUp();
        return answer;
      } catch (error) {
        markDown(error);
        return fallback();
      }
    },
    close() {
      closing = true;
      client.disconnect();
    },
  };
}

/** `redis://user:secret@cache.internal:6380/2` → `cache.internal:6380/2`. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  const db = parsed.pathname.length > 1 ? parsed.pathname : "";
  return `${parsed.hostname}:${parsed.port || "6379"}${db}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
