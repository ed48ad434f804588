/**
 * `npm run bench -- --write-docs`: each benchmark that ran replaces its own section of
 * docs/benchmarks.md with the table it printed, headed by the command that re-runs it, the day,
 * the machine and its load. The sections sit between markers the page keeps
 * (`<!-- bench:NAME -->` … `<!-- /bench:NAME -->`); the words around them say how to read each
 * table and are written by hand. A benchmark that did not run keeps its section as it was.
 */
import { cpus, loadavg, release, totalmem } from "node:os";
import { toTableCell } from "../core/markdown.ts";
import type { BenchRow } from "./build.ts";

/** Every benchmark of `npm run bench`, in its order: docs/benchmarks.md has a section for each. */
export const BENCH_NAMES = ["build", "incremental", "scaling", "changes", "fingerprint", "fingerprint-http", "routes", "shutdown", "search", "serve", "deploy"] as const;

export interface BenchRecord {
  name: string;
  title: string;
  /** The command line that re-runs this benchmark, as an operator types it. */
  command: string;
  rows: BenchRow[];
  /** The machine as the run began and ended (load averages move with the run). */
  machine: MachineNote;
  /** When the run began, as a UTC day. */
  day: string;
}

export interface MachineNote {
  cores: number;
  cpu: string;
  memoryGiB: number;
  os: string;
  node: string;
  loadBefore: number;
  loadAfter?: number;
}

/** The machine as a benchmark begins. */
export function noteMachine(): MachineNote {
  const cpu = cpus();
  return {
    cores: cpu.length,
    cpu: (cpu[0]?.model ?? "unknown CPU").replace(/\s+/g, " ").trim(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `Linux ${release()}`,
    node: process.version,
    loadBefore: loadavg()[0]!,
  };
}

export const markerStart = (name: string): string => `<!-- bench:${name} -->`;
export const markerEnd = (name: string): string => `<!-- /bench:${name} -->`;

/** A table cell as the project's Markdown writes one (pipes escaped, one line), trimmed. */
const cell = (text: string): string => toTableCell(text).trim();

/** The section between a benchmark's markers: the command, the day and machine, then the table. */
export function renderSection(record: BenchRecord): string {
  const { machine } = record;
  const load = machine.loadAfter === undefined ? machine.loadBefore.toFixed(1) : `${machine.loadBefore.toFixed(1)} → ${machine.loadAfter.toFixed(1)}`;
  const lines = [
    markerStart(record.name),
    `${record.title}. Written by \`${record.command} --write-docs\` on ${record.day}: ${machine.cores} × ${machine.cpu}, ${machine.memoryGiB} GiB, ${machine.os}, Node ${machine.node}; load average ${load} over the run.`,
    "",
    "| metric | value | baseline (same run) | ratio | target |",
    "| --- | --- | --- | --- | --- |",
    // A row indented under the one before (its files, its time) keeps a mark of it: a table cell drops leading spaces.
    ...record.rows.map((r) => `| ${[r.metric.replace(/^\s+/, (indent) => "· ".repeat(Math.ceil(indent.length / 2))), r.value, r.baseline, r.ratio, r.target].map(cell).join(" | ")} |`),
    markerEnd(record.name),
  ];
  return lines.join("\n");
}

/**
 * The page with each record's section replaced. A section the page does not have yet is added at
 * the end under the benchmark's title; markers out of order or unpaired are an error, never a
 * guess that could swallow the hand-written text between two sections.
 */
export function replaceSections(page: string, records: BenchRecord[]): string {
  let out = page;
  for (const record of records) {
    const start = out.indexOf(markerStart(record.name));
    const end = out.indexOf(markerEnd(record.name));
    if (start === -1 && end === -1) {
      out = `${out.replace(/\n*$/, "")}\n\n## ${record.title}\n\n${renderSection(record)}\n`;
      continue;
    }
    if (start === -1 || end === -1 || end < start || out.indexOf(markerStart(record.name), start + 1) !== -1) {
      throw new Error(`docs/benchmarks.md: the markers of the "${record.name}" section are unpaired or repeated; fix them by hand, then run again`);
    }
    out = out.slice(0, start) + renderSection(record) + out.slice(end + markerEnd(record.name).length);
  }
  return out;
}

/** The UTC day of an instant, as the page shows it. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** A benchmark's table as the page holds it: its rows, cells unescaped. */
export function readSectionRows(page: string, name: string): BenchRow[] {
  const start = page.indexOf(markerStart(name));
  const end = page.indexOf(markerEnd(name));
  if (start === -1 || end < start) return [];
  return page
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("| "))
    .slice(2)
    .map((line) => {
      const cells = line.slice(2, -2).split(/(?<!\\) \| /).map((c) => c.replace(/\\\|/g, "|"));
      const [metric = "", value = "", baseline = "", ratio = "", target = ""] = cells;
      return { metric, value, baseline, ratio, target };
    });
}

interface Headline {
  bench: (typeof BENCH_NAMES)[number];
  /** The page's heading the row links to. */
  anchor: string;
  what: string;
  /** The figure, its baseline and ratio from the benchmark's rows, or nothing when the row is missing. */
  pick: (rows: BenchRow[]) => { figure: string; baseline: string; ratio: string } | undefined;
}

const row = (rows: BenchRow[], metric: RegExp) => rows.find((r) => metric.test(r.metric));
const asIs = (r: BenchRow | undefined) => r && { figure: r.value, baseline: r.baseline, ratio: r.ratio };

/** The figures the README's front page shows, each taken from the table of its benchmark. */
const HEADLINES: Headline[] = [
  {
    bench: "build",
    anchor: "build",
    what: "full build at 1 000 000 usernames, beside the disk's floor",
    pick: (rows) => {
      const full = row(rows, /^full build/);
      const before = row(rows, /^[·\s]*the same, beside the floor written right before/);
      if (!full || !before) return asIs(full);
      const seconds = (baseline: string) => /: ([\d.,]+ s)$/.exec(baseline)?.[1] ?? baseline;
      return { figure: full.value, baseline: `floor written right before it ${seconds(before.baseline)}, right after ${seconds(full.baseline)}`, ratio: `${before.ratio} / ${full.ratio}` };
    },
  },
  { bench: "build", anchor: "build", what: "its peak RSS", pick: (rows) => asIs(row(rows, /^build peak RSS/)) },
  {
    bench: "incremental",
    anchor: "incremental-builds",
    what: "a day of changes at 1M, built incrementally",
    pick: (rows) => {
      const index = rows.findIndex((r) => r.metric === "a day of changes");
      const full = rows.slice(index + 1).find((r) => r.metric.replace(/^[·\s]+/, "") === "the same snapshot with --full");
      return index === -1 || !full ? undefined : { figure: rows[index]!.value, baseline: `${full.value} with \`--full\`, same snapshot`, ratio: full.ratio };
    },
  },
  {
    bench: "incremental",
    anchor: "incremental-builds",
    what: "its floor: a bare loop writing the files that day changed",
    pick: (rows) => asIs(row(rows, /^[·\s]*its floor: /)),
  },
  {
    bench: "incremental",
    anchor: "incremental-builds",
    what: "a publish five minutes after the last at 1M: 0.01 % of usernames with a new report",
    pick: (rows) => asIs(row(rows, /^five minutes later/)),
  },
  { bench: "scaling", anchor: "scaling", what: "full build at 4 000 000 usernames, beside 1 000 000 in the same run", pick: (rows) => asIs(row(rows, /^full build at/)) },
  { bench: "scaling", anchor: "scaling", what: "its peak RSS", pick: (rows) => asIs(row(rows, /^[·\s]*its peak RSS/)) },
  { bench: "changes", anchor: "the-change-feed", what: "a day's spammer change file at 1M", pick: (rows) => asIs(row(rows, /^spammers: the day's change file/)) },
  { bench: "search", anchor: "search", what: "global search p50 / p99 / max, 100 000 entities and 1M usernames", pick: (rows) => asIs(row(rows, /^global: p50 \/ p99/)) },
  { bench: "serve", anchor: "serving", what: "the live server, a known check, 100 000 usernames", pick: (rows) => asIs(row(rows, /^GET \/api\/check\/\{known\}/)) },
];

export const FIGURES_START = "<!-- bench:figures -->";
export const FIGURES_END = "<!-- /bench:figures -->";

/** The README's table of current figures, from the tables of docs/benchmarks.md. */
export function renderFigures(benchmarksPage: string): string {
  const lines = [FIGURES_START, "| what | figure | baseline (same run) | ratio |", "| --- | --- | --- | --- |"];
  for (const headline of HEADLINES) {
    const picked = headline.pick(readSectionRows(benchmarksPage, headline.bench));
    if (!picked) continue;
    lines.push(`| [${headline.what}](docs/benchmarks.md#${headline.anchor}) | ${[picked.figure, picked.baseline, picked.ratio].map(cell).join(" | ")} |`);
  }
  lines.push(FIGURES_END);
  return lines.join("\n");
}

/** The README with its figures table made again from docs/benchmarks.md. */
export function replaceFigures(readme: string, benchmarksPage: string): string {
  const start = readme.indexOf(FIGURES_START);
  const end = readme.indexOf(FIGURES_END);
  if (start === -1 || end < start) throw new Error("README.md has no figures table between its markers; put them back, then run again");
  return readme.slice(0, start) + renderFigures(benchmarksPage) + readme.slice(end + FIGURES_END.length);
}
