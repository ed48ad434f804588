/**
 * build-report.json — what went in and what was refused: counts, and rejected rows by reason
 * with samples. Timings are not in it (they would make two builds of one snapshot differ); the
 * build prints them and keeps them beside the builds, outside dist.
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
      rejections: model.rejections.toJSON(),
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
