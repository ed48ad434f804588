/**
 * Progress of long commands (DESIGN "Build properties: Visible"): on a terminal, one status line
 * rewritten in place at most five times a second; elsewhere (CI logs, pipes) only the build's
 * phase names, one line each, so a log stays short. The clock read here only drives the display;
 * nothing it reads reaches dist.
 */
import type { ProgressSink } from "../build/progress.ts";
import { formatCount, formatSeconds } from "./log.ts";

/** The milliseconds between two redraws: faster is flicker, and costs the build time. */
const REDRAW_MS = 200;

interface StatusLine {
  /** Redraws the line unless the last redraw was under REDRAW_MS ago (`force` draws anyway). */
  show(text: string, force?: boolean): void;
  clear(): void;
}

function createStatusLine(stream: NodeJS.WriteStream): StatusLine {
  let last = Number.NEGATIVE_INFINITY;
  return {
    show(text, force = false) {
      const now = performance.now();
      if (!force && now - last < REDRAW_MS) return;
      last = now;
      stream.write(`\r\x1b[2K${text}`);
    },
    clear() {
      stream.write("\r\x1b[2K");
    },
  };
}

/** The build's progress on `stream`: what build/build.ts reports, drawn for a person or a log. */
export function createBuildProgress(stream: NodeJS.WriteStream): ProgressSink {
  return (totalReports) => {
    const tty = stream.isTTY === true;
    const line = createStatusLine(stream);
    const started = performance.now();
    let phase = "";
    return {
      phase(name) {
        phase = name;
        if (!tty) stream.write(`build: ${name}\n`);
      },
      update(reports, files) {
        if (!tty) return;
        const percent = totalReports > 0 ? Math.min(100, (reports / totalReports) * 100).toFixed(0) : "100";
        const elapsed = formatSeconds(performance.now() - started);
        line.show(`build: ${phase}  reports ${formatCount(reports)}/${formatCount(totalReports)} (${percent}%)  files ${formatCount(files)}  ${elapsed}`);
      },
      done() {
        if (tty) line.clear();
      },
    };
  };
}

/** The sample generator's progress: a count on a terminal, nothing in a log (it has no phases). */
export function createSampleProgress(stream: NodeJS.WriteStream): { update(done: number, total: number): void; done(): void } {
  const tty = stream.isTTY === true;
  const line = createStatusLine(stream);
  return {
    update(done, total) {
      if (tty) line.show(`sample: ${formatCount(done)} / ${formatCount(total)} usernames`, done === total);
    },
    done() {
      if (tty) line.clear();
    },
  };
}
