/**
 * `npm run docs:api`: writes docs/api-reference.md, the route table rendered with a small sample
 * build's answers (cli/api-reference-page.ts). The page is committed, and
 * test/architecture/api-reference.test.ts fails while it differs from a fresh rendering: this
 * command is how it is brought up to date.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { API_REFERENCE_FILE } from "../core/routes/api-reference.ts";
import { ROUTES } from "../core/routes/table.ts";
import { renderReferencePage } from "./api-reference-page.ts";
import { runCommand } from "./command.ts";
import { DOCS_API } from "./flag-table.ts";
import { createLog } from "./log.ts";

runCommand(DOCS_API, () => {
  const path = resolve(import.meta.dirname, "..", API_REFERENCE_FILE);
  const page = renderReferencePage();
  const log = createLog("docs:api");
  if (readCurrent(path) === page) return log.info(`${API_REFERENCE_FILE} is up to date (${ROUTES.length} routes)`);
  writeAtomically(path, page);
  log.info(`wrote ${API_REFERENCE_FILE} (${ROUTES.length} routes)`);
});

function readCurrent(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Beside the page, then renamed over it: whoever reads the page meanwhile (its test) reads a whole one, old or new. */
function writeAtomically(path: string, text: string): void {
  const aside = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(aside, text);
    renameSync(aside, path);
  } finally {
    rmSync(aside, { force: true });
  }
}
