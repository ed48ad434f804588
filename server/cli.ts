/** `npm run serve -- [--dist DIR] [--port N] [--host H] [--trust-proxy] [--read-limit N]`: serves a built dist. */
import { formatHelp, parseIntegerFlag, readFlags, runMain } from "../scripts/cli.ts";
import { serve } from "./listen.ts";

export const SERVE_FLAGS = {
  dist: { type: "string", env: "DIST", default: "dist", description: "the built dist (folder or link) to serve" },
  port: { type: "string", env: "PORT", default: "3000", description: "port to listen on (0 picks a free one)" },
  host: { type: "string", env: "HOST", default: "localhost", description: "address to listen on (0.0.0.0 for every interface)" },
  "trust-proxy": { type: "boolean", env: "TRUST_PROXY", description: "rate-limit by the last X-Forwarded-For entry (only behind your own proxy)" },
  "read-limit": { type: "string", env: "READ_LIMIT", default: "0", description: "GET requests per minute per client address (0: no limit)" },
} as const;

runMain(async () => {
  const flags = readFlags(SERVE_FLAGS);
  if (flags.help) return void console.log(formatHelp("npm run serve -- [options]", SERVE_FLAGS));
  await serve({
    dist: flags.dist!,
    port: parseIntegerFlag("port", flags.port, 0, 65535),
    host: flags.host!,
    trustProxy: ["true", "1", "yes"].includes((flags["trust-proxy"] ?? "").toLowerCase()),
    readRateLimit: parseIntegerFlag("read-limit", flags["read-limit"], 0, 1_000_000),
  });
});
