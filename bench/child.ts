/**
 * Runs one of the project's commands in this process and, at exit, writes its peak RSS (from
 * the kernel's own accounting) to the file named by BENCH_STATS, so the benchmark can measure
 * sample generation and the build as separate processes, the way an operator runs them.
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [script, ...args] = process.argv.slice(2);
if (!script) throw new Error("usage: bench/child.ts <script.ts> [args…]");
const statsFile = process.env.BENCH_STATS;
const started = performance.now();
process.on("exit", (code) => {
  if (statsFile) writeFileSync(statsFile, JSON.stringify({ code, seconds: (performance.now() - started) / 1000, maxRssBytes: process.resourceUsage().maxRSS * 1024 }));
});
process.argv = [process.argv[0]!, resolve(script), ...args];
await import(pathToFileURL(resolve(script)).href);
