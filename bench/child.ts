/**
 * Runs one of the project's commands in this process and, at exit, writes its peak RSS (from
 * the kernel's own accounting) to the file named by BENCH_STATS, so the benchmark can measure
 * sample generation and the build as separate processes, the way an operator runs them.
 *
 * The peak is VmHWM of /proc/self/status: this process image's own high-water mark, threads
 * included. getrusage's maxRSS (process.resourceUsage) is not: Linux carries it over fork and
 * exec, so a child of a large benchmark process reported that process's size (a build that
 * found nothing changed "peaked" at the 769 MiB its parent held when it was spawned).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const [script, ...args] = process.argv.slice(2);
if (!script) throw new Error("usage: bench/child.ts <script.ts> [args…]");
const statsFile = process.env.BENCH_STATS;
const started = performance.now();
process.on("exit", (code) => {
  if (statsFile) writeFileSync(statsFile, JSON.stringify({ code, seconds: (performance.now() - started) / 1000, maxRssBytes: readPeakRssBytes() }));
});

/** This process image's peak RSS; getrusage's where there is no /proc (it may include the parent's, above). */
function readPeakRssBytes(): number {
  try {
    const found = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (found) return Number(found[1]) * 1024;
  } catch {
    // No /proc: not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}
process.argv = [process.argv[0]!, resolve(script), ...args];
await import(pathToFileURL(resolve(script)).href);
