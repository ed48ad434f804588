/**
 * `npm start`: the whole loop on a fresh clone — make the sample snapshot if it is missing,
 * build dist from it, and serve it. Same flags and environment as the separate commands.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { buildDist } from "../build/build.ts";
import { checkBaseUrl } from "../core/urls.ts";
import { DEFAULT_AS_OF, generateSample } from "../data/sample/generate.ts";
import { serve } from "../server/listen.ts";
import { parseIntegerFlag, readFlags, runMain } from "./cli.ts";
import { createBuildProgress } from "../cli/progress.ts";

const FLAGS = {
  db: { type: "string", env: "DB", default: "data/sample.sqlite", description: "snapshot (made from the sample if missing)" },
  out: { type: "string", env: "DIST", default: "dist", description: "dist link" },
  "base-url": { type: "string", env: "BASE_URL", description: "base URL (default http://HOST:PORT)" },
  port: { type: "string", env: "PORT", default: "3000", description: "port" },
  host: { type: "string", env: "HOST", default: "localhost", description: "host" },
} as const;

runMain(async () => {
  const flags = readFlags(FLAGS);
  const port = parseIntegerFlag("port", flags.port, 0, 65535);
  const host = flags.host!;
  const baseUrl = flags["base-url"] ?? `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;
  const problem = checkBaseUrl(baseUrl);
  if (problem) throw new Error(`--base-url ${problem}`);
  const db = flags.db!;
  if (!existsSync(db)) {
    console.log(`start: no snapshot at ${db}; generating the sample (20 000 usernames)…`);
    mkdirSync(dirname(db), { recursive: true });
    generateSample({ scale: 20_000, seed: "1", out: db, asOf: DEFAULT_AS_OF });
  }
  const started = performance.now();
  const summary = buildDist({ db, out: flags.out!, baseUrl, progress: createBuildProgress(process.stderr) });
  console.log(`start: built ${summary.files.toLocaleString("en")} files in ${((performance.now() - started) / 1000).toFixed(1)}s`);
  await serve({ dist: flags.out!, port, host });
});
