/**
 * What a build tells whoever watches it: the phase (emitter) it is in and how far the report pass
 * has got. The build only reports; drawing that on a terminal is the command's business
 * (cli/progress.ts), so the compiler never touches a stream and a test or a benchmark passes null.
 */
export interface Progress {
  phase(name: string): void;
  update(reports: number, files: number): void;
  done(): void;
}

/**
 * Opens a display for one build. A factory rather than a ready Progress because the total of
 * reports, which a display needs for its percentage, is known only once the snapshot is open.
 */
export type ProgressSink = (totalReports: number) => Progress;

const SILENT: Progress = { phase() {}, update() {}, done() {} };

export function createProgress(sink: ProgressSink | null, totalReports: number): Progress {
  return sink ? sink(totalReports) : SILENT;
}
