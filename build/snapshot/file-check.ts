/**
 * What the snapshot file is, checked before SQLite opens it: SQLite says "disk I/O error" for a
 * directory and "file is not a database" for anything else, and finds a truncated file only when
 * the build reaches a missing page, mid-way. The header (the first 100 bytes, sqlite.org/fileformat.html
 * §1.3) says enough to refuse each at once, in words that name the problem.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { BuildError } from "../errors.ts";

const HEADER_BYTES = 100;
const MAGIC = "SQLite format 3\0";

/** Throws a BuildError (kind `input`, but for a missing file) unless `path` looks like a whole SQLite database. */
export function checkSnapshotFile(path: string): void {
  const refuse = (problem: string, cause?: unknown) => new BuildError(`snapshot ${path} ${problem}`, { kind: "input", cause });
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw refuse("is a directory, not an SQLite file");
    if (!stat.isFile()) throw refuse("is not a regular file");
    size = stat.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BuildError(`snapshot not found: ${path} (run \`npm run sample\` to make one)`);
    throw error instanceof BuildError ? error : refuse(`cannot be read: ${describeSystemError(error)}`, error);
  }
  if (size === 0) throw refuse("is empty, not an SQLite database");
  const header = readHeader(path, (error) => refuse(`cannot be read: ${describeSystemError(error)}`, error));
  if (size < HEADER_BYTES || header.toString("latin1", 0, MAGIC.length) !== MAGIC) throw refuse("is not an SQLite database");
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65_536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) throw refuse(`is not an SQLite database (its header gives a page size of ${raw})`);
  // The page count in the header is valid when the two counters beside it agree (§1.3.7).
  const pages = header.readUInt32BE(28);
  const countValid = pages > 0 && header.readUInt32BE(24) === header.readUInt32BE(92);
  if (countValid && size < pages * pageSize) {
    throw refuse(`is truncated: ${size} bytes, where its header says ${pages * pageSize} (${pages} pages of ${pageSize}); copy it again`);
  }
  if (!countValid && size % pageSize !== 0) throw refuse(`is truncated: ${size} bytes, not a whole number of ${pageSize}-byte pages; copy it again`);
}

function readHeader(path: string, refuse: (error: unknown) => BuildError): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw refuse(error);
  }
  try {
    readSync(fd, header, 0, HEADER_BYTES, 0);
  } catch (error) {
    throw refuse(error);
  } finally {
    closeSync(fd);
  }
  return header;
}

/** "permission denied" rather than "EACCES: permission denied, open '/x/y.sqlite'": the path is already said. */
function describeSystemError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const text = /^[A-Z]+: ([^,]+)/.exec(message ?? "")?.[1];
  return text ?? code ?? String(error);
}
