/**
 * How every command talks: what it did goes to stdout as `name: text` (so `npm start`, which runs
 * the sample, build and serve steps, reads like the three commands run by hand); progress goes to
 * stderr (cli/progress.ts); a failure is `error: text` on stderr (cli/command.ts). Numbers are formatted the same
 * way everywhere, in English grouping whatever the machine's locale, so logs compare across hosts.
 */
export interface Log {
  info(text: string): void;
}

export function createLog(name: string, stream: NodeJS.WritableStream = process.stdout): Log {
  return { info: (text) => void stream.write(`${name}: ${text}\n`) };
}

export function formatCount(n: number): string {
  return n.toLocaleString("en");
}

export function formatSeconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)}s`;
}

export function formatMiB(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}

