/**
 * Reading the model: the snapshot's tables, validated, aggregated and ranked, in the one order
 * the build needs — now (as_of), the catalog, the pass over reports (which fills the catalog's
 * complaint counts), then the small tables. Every rejection is recorded by the time this returns;
 * emitters only read what it returns (types.ts).
 */
import { compareCompanies } from "../../core/ranking.ts";
import { getDayNumber } from "../../core/time.ts";
import { BuildError } from "../errors.ts";
import { readFingerprintProfiles, readMeta } from "../snapshot/catalog.ts";
import { readContent } from "../snapshot/content.ts";
import type { Snapshot } from "../snapshot/open.ts";
import { countReports, readInstant, readNewestReport } from "../snapshot/report-sql.ts";
import { readCatalog } from "./catalog.ts";
import { readChatStatuses } from "./chats.ts";
import { selectContentPages, type InstantParser } from "./content.ts";
import { selectDetectionRules } from "./detection-rules.ts";
import { indexFingerprintProfiles } from "./fingerprints.ts";
import { Rejections } from "./rejections.ts";
import { runReportPass, type PassRows } from "./report-pass.ts";
import type { Model } from "./types.ts";

export interface ReadModelOptions {
  /** Hears the reports the pass has aggregated so far (the build's progress line). */
  onProgress?: (reports: number) => void;
  /** Where the pass's username rows come from and are kept (report-pass.ts). */
  rows?: PassRows;
}

export function readModel(db: Snapshot, options: ReadModelOptions = {}): Model {
  const meta = readMeta(db);
  const parseInstant: InstantParser = (text) => {
    if (text === null) return null;
    const seconds = readInstant(db, text);
    return seconds === null ? null : seconds * 1000;
  };
  const asOfMs = resolveAsOf(db, meta, parseInstant);
  const day0 = getDayNumber(asOfMs);
  const reportCount = countReports(db);
  const rejections = new Rejections();
  const catalog = readCatalog(db, rejections);
  const pass = runReportPass(db, catalog, day0, rejections, options.onProgress, options.rows);
  const rows = readContent(db);
  const content = selectContentPages(rows, rejections, parseInstant);
  return {
    asOfMs,
    day0,
    meta,
    reportCount,
    companies: catalog.companies,
    ranked: [...catalog.companies].sort(compareCompanies),
    people: catalog.people,
    spammers: pass.spammers,
    spammerLists: pass.lists,
    unchangedCompanies: pass.unchangedCompanies,
    content,
    chats: readChatStatuses(content.chats, asOfMs, parseInstant, rejections),
    detectionRules: selectDetectionRules(rows.detectionRules, parseInstant, rejections),
    fingerprints: indexFingerprintProfiles(readFingerprintProfiles(db), rejections),
    rejections,
  };
}

/** DESIGN "Now": meta as_of, else the newest report. Never the clock. */
function resolveAsOf(db: Snapshot, meta: Map<string, string>, parseInstant: InstantParser): number {
  const declared = meta.get("as_of");
  if (declared !== undefined) {
    const ms = parseInstant(declared);
    if (ms === null) throw new BuildError(`meta as_of is not an ISO 8601 instant: ${JSON.stringify(declared)}`);
    return ms;
  }
  const newest = readNewestReport(db);
  if (newest === null) throw new BuildError("the snapshot has no meta as_of and no dated report to take 'now' from");
  return newest * 1000;
}
