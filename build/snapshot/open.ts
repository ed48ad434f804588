/**
 * Opening a snapshot: read-only, checked before any work starts — the file (file-check.ts), then
 * the contract's tables and columns (contract.ts). Every SQL statement the build runs lives in
 * this folder (STYLE: "SQL lives in one snapshot-reading module"); the model (build/model/)
 * validates what it reads.
 */
import Database from "better-sqlite3";
import { BuildError } from "../errors.ts";
import { checkContract } from "./contract.ts";
import { checkSnapshotFile } from "./file-check.ts";

export type Snapshot = Database.Database;

/** SQLite's answers that mean "this file, as it is, cannot be built from", in the operator's words. */
const INPUT_PROBLEMS: Record<string, string> = {
  // Another process holds a lock that excludes readers (a write in progress, or locking_mode=EXCLUSIVE):
  // better-sqlite3 waits its busy timeout (5 s) for it first.
  SQLITE_BUSY: "is locked by another process (a write in progress?); build again once it is done",
  SQLITE_LOCKED: "is locked by another connection; build again once it is done",
  SQLITE_NOTADB: "is not an SQLite database (or is encrypted)",
  SQLITE_CORRUPT: "is damaged (SQLite: database disk image is malformed); copy it again",
  SQLITE_CANTOPEN: "cannot be opened",
};

export function openSnapshot(path: string): Snapshot {
  checkSnapshotFile(path);
  let db: Snapshot | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    checkEncoding(db, path);
    checkContract(db, path);
    // Sorts spill to temporary files instead of growing the heap. This connection reads the small
    // tables and walks the username index once, so a small page cache does; the query threads,
    // which sort and look reports up, keep 64 MiB each (group-worker.cjs, query-worker.cjs).
    db.pragma("temp_store = FILE");
    db.pragma("cache_size = -8192");
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof BuildError) throw error;
    const code = String((error as { code?: unknown }).code ?? "");
    const problem = INPUT_PROBLEMS[code] ?? INPUT_PROBLEMS[code.replace(/_[A-Z]+$/, "")];
    const message = error instanceof Error ? error.message : String(error);
    if (problem) throw new BuildError(`snapshot ${path} ${problem}`, { kind: "input", cause: error });
    throw new BuildError(`reading snapshot ${path}: ${message}`, { cause: error });
  }
}

/**
 * The build reads UTF-8 snapshots, SQLite's default. In a UTF-16 one, SQLite's BINARY order (the
 * usernames' ORDER BY) is that of UTF-16 code units byte by byte, not the order the build
 * checks its username groups in; and the digests hash the text's bytes as UTF-8.
 */
function checkEncoding(db: Snapshot, path: string): void {
  const encoding = db.pragma("encoding", { simple: true }) as string;
  if (encoding === "UTF-8") return;
  throw new BuildError(`snapshot ${path} stores its text as ${encoding}, where the build reads UTF-8 (SQLite's default): export it again as UTF-8 (\`sqlite3 OLD .dump | sqlite3 NEW\` does)`, { kind: "input" });
}
