/**
 * Progress for long builds: one line rewritten in place on a terminal (at most a few times a
 * second), plain phase lines elsewhere so CI logs stay short. The clock read here only drives
 * the display; nothing it reads reaches dist.
 */
export interface Progress {
  phase(name: string): void;
  update(reports: number, files: number): void;
  done(): void;
}

export function createProgress(stream: NodeJS.WriteStream | null, totalReports: number): Progress {
  if (!stream) return { phase() {}, update() {}, done() {} };
  const tty = stream.isTTY === true;
  const started = performance.now();
  let last = 0;
  let phase = "";
  const fmt = (n: number) => n.toLocaleString("en");
  return {
    phase(name) {
      phase = name;
      if (!tty) stream.write(`build: ${name}\n`);
    },
    update(reports, files) {
      const now = performance.now();
      if (!tty || now - last < 200) return;
      last = now;
      const pct = totalReports > 0 ? Math.min(100, (reports / totalReports) * 100).toFixed(0) : "100";
      stream.write(`\r\x1b[2Kbuild: ${phase}  reports ${fmt(reports)}/${fmt(totalReports)} (${pct}%)  files ${fmt(files)}  ${((now - started) / 1000).toFixed(1)}s`);
    },
    done() {
      if (tty) stream.write("\r\x1b[2K");
    },
  };
}
