/**
 * build-report.json — what went in and what was refused: counts, and rejected rows by reason
 * with what happened to them. It is public, so it holds nothing a snapshot owner would not
 * publish: the rejected rows' samples (row ids, the offending values, which can belong to a
 * fingerprint profile that is not public) are not in it; the build keeps them, and its timings
 * (which would make two builds of one snapshot differ), in its summary beside the builds, outside
 * dist (`.dist-builds/last-build.json`).
 */
import { formatInstant } from "../../core/time.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";
import { getRouteFile } from "../../core/routes/match.ts";

export function* emitBuildReport({ model, urls }: EmitContext): Generator<OutputFile> {
  const lists = model.spammerLists;
  yield {
    path: getRouteFile("getBuildReport"),
    data: toJson({
      as_of: formatInstant(model.asOfMs),
      base_url: urls.base,
      source: model.meta.get("source") ?? null,
      license: model.meta.get("license") ?? null,
      counts: getBuildCounts(model),
      spammers_by_category: Object.fromEntries([...lists.byCategory].map(([c, l]) => [c, l.total])),
      rejected_total: model.rejections.total,
      rejections: model.rejections.toJSON().map(({ reason, count, effect }) => ({ reason, count, effect })),
    }),
  };
}

export function getBuildCounts(model: EmitContext["model"]) {
  return {
    reports_read: model.reportCount,
    usernames: model.spammerLists.total,
    companies: model.companies.length,
    companies_with_reports: model.companies.filter((c) => c.reportsCount > 0).length,
    people: model.people.length,
  };
}
