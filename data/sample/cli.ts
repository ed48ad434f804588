/** `npm run sample -- [--scale N] [--seed S] [--out FILE]`: writes a deterministic sample snapshot. */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { formatHelp, parseIntegerFlag, readFlags, runMain } from "../../scripts/cli.ts";
import { DEFAULT_AS_OF, generateSample } from "./generate.ts";

const FLAGS = {
  scale: { type: "string", env: "SCALE", default: "20000", description: "number of reported usernames (everything else grows with it)" },
  seed: { type: "string", env: "SEED", default: "1", description: "random seed; the same seed gives the same rows" },
  out: { type: "string", env: "DB", default: "data/sample.sqlite", description: "where to write the snapshot" },
  "as-of": { type: "string", default: DEFAULT_AS_OF, description: "the snapshot's 'now' (meta as_of)" },
} as const;

runMain(() => {
  const flags = readFlags(FLAGS);
  if (flags.help) return void console.log(formatHelp("npm run sample -- [options]", FLAGS));
  const scale = parseIntegerFlag("scale", flags.scale, 1, 10_000_000);
  if (Number.isNaN(Date.parse(flags["as-of"]!))) throw new Error(`--as-of must be an ISO 8601 instant, got ${flags["as-of"]}`);
  const out = flags.out!;
  mkdirSync(dirname(out), { recursive: true });
  const started = performance.now();
  const tty = process.stderr.isTTY;
  const summary = generateSample({
    scale,
    seed: flags.seed!,
    out,
    asOf: flags["as-of"]!,
    onProgress: (done, total) => {
      if (tty) process.stderr.write(`\rsample: ${done.toLocaleString("en")} / ${total.toLocaleString("en")} usernames`);
    },
  });
  if (tty) process.stderr.write("\n");
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `sample: wrote ${out}: ${summary.usernames} usernames, ${summary.reports} reports, ${summary.companies} companies, ${summary.people} people in ${seconds}s`,
  );
});
