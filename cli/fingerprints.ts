/**
 * `npm run fingerprints -- import [--db FILE]`: loads the shipped fingerprint library into a
 * snapshot (data/fingerprints/import.ts), which must follow the snapshot contract like any the
 * build reads — it is checked the build's way first, read-only, before it is written to.
 */
import Database from "better-sqlite3";
import { openSnapshot } from "../build/snapshot/open.ts";
import { importFingerprintLibrary } from "../data/fingerprints/import.ts";
import { readFingerprintLibrary } from "../data/fingerprints/library.ts";
import { runCommand } from "./command.ts";
import { FINGERPRINT_ACTIONS, FINGERPRINTS } from "./flag-table.ts";
import { UsageError } from "./flags.ts";
import { createLog, formatCount } from "./log.ts";

runCommand(FINGERPRINTS, (flags) => {
  const action = flags.argument;
  if (action === undefined) throw new UsageError(`name an action first (${FINGERPRINT_ACTIONS.join(", ")}): ${FINGERPRINTS.usage.replace(/^.* -- /, "")}`);
  if (!FINGERPRINT_ACTIONS.some((name) => name === action)) throw new UsageError(`unknown action ${JSON.stringify(action)}: the actions are ${FINGERPRINT_ACTIONS.join(", ")}`);
  const path = flags.values.db;
  openSnapshot(path).close();
  const library = readFingerprintLibrary();
  const db = new Database(path, { fileMustExist: true });
  try {
    const { added, updated, unchanged } = importFingerprintLibrary(db, library);
    createLog("fingerprints").info(
      `library ${library.version} into ${path}: ${formatCount(added)} added, ${formatCount(updated)} updated, ${formatCount(unchanged)} unchanged (${formatCount(library.profiles.length)} profiles)`,
    );
  } finally {
    db.close();
  }
});
