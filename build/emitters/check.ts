/**
 * api/check/{username}.json — one file per valid reported username (the reference's "Check
 * result (username found)"). This emitter drives the build's single pass over reports, so it
 * runs first; every later emitter reads the aggregates that pass filled in.
 */
import { formatInstant } from "../../core/time.ts";
import { getWeekTrend } from "../../core/trend.ts";
import type { Urls } from "../../core/urls.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Spammer } from "../model.ts";
import type { OutputFile } from "../writer.ts";

export function renderCheckResult(spammer: Spammer, urls: Urls) {
  return {
    found: true as const,
    username: spammer.username,
    reports_count: spammer.reportsCount,
    unique_reports: spammer.uniqueReports,
    confidence_max: spammer.confidenceMax,
    first_seen: formatInstant(spammer.firstSeenMs),
    last_seen: formatInstant(spammer.lastSeenMs),
    week_trend: getWeekTrend(spammer.last7Days, spammer.previous7Days),
    last_7_days: spammer.last7Days,
    categories: spammer.categories,
    companies: spammer.companies.map((c) => ({ name: c.name, slug: c.slug, url: urls.companyPage(c.slug) })),
    url: urls.spammer(spammer.username),
  };
}

export function* emitCheckFiles(ctx: EmitContext, onProgress?: (reports: number) => void): Generator<OutputFile> {
  for (const spammer of ctx.model.spammers(onProgress)) {
    yield { path: `api/check/${spammer.username}.json`, data: toJson(renderCheckResult(spammer, ctx.urls)) };
  }
}
