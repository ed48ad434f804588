/**
 * `npm run docs:pictures`: writes docs/images/, the pictures of docs/site-owners.md, taken from a
 * build of the test fixture (build/doc-pictures.ts says which and how). The fixture's SQL is read
 * as data, the way its tests make it: the schema, then its rows, into a snapshot in a temporary
 * folder. test/build/doc-pictures.test.ts fails while a committed picture differs from a fresh one;
 * this command is how they are brought up to date. A file of docs/images/ that is no picture any
 * more is removed: the folder is this command's.
 */
import Database from "better-sqlite3";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DOC_PICTURES_DIR, drawDocPictures } from "../build/doc-pictures.ts";
import { runCommand } from "./command.ts";
import { DOCS_PICTURES } from "./flag-table.ts";
import { createLog } from "./log.ts";

const ROOT = resolve(import.meta.dirname, "..");
const SNAPSHOT_SQL = ["data/schema.sql", "test/fixtures/snapshot.sql"];

runCommand(DOCS_PICTURES, () => {
  const log = createLog("docs:pictures");
  const pictures = drawFixturePictures();
  const dir = join(ROOT, DOC_PICTURES_DIR);
  mkdirSync(dir, { recursive: true });
  let written = 0;
  for (const [file, text] of pictures) {
    if (readCurrent(join(dir, file)) === text) continue;
    writeFileSync(join(dir, file), text);
    log.info(`wrote ${DOC_PICTURES_DIR}/${file}`);
    written++;
  }
  for (const file of readdirSync(dir).filter((name) => !pictures.has(name))) {
    rmSync(join(dir, file), { recursive: true, force: true });
    log.info(`removed ${DOC_PICTURES_DIR}/${file}, no picture any more`);
  }
  log.info(`${pictures.size} pictures in ${DOC_PICTURES_DIR}, ${written === 0 ? "all up to date" : `${written} written`}`);
});

function drawFixturePictures(): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "spamcheck-docs-pictures-"));
  try {
    const path = join(dir, "snapshot.sqlite");
    const db = new Database(path);
    try {
      for (const file of SNAPSHOT_SQL) db.exec(readFileSync(join(ROOT, file), "utf8"));
    } finally {
      db.close();
    }
    return drawDocPictures(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readCurrent(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
