/**
 * An incremental build does not make again a file whose inputs it knows to be unchanged
 * (writer/output.ts UNCHANGED): a username's check file when its row and its companies'
 * showCompany are, a company's badges, widget and embeds when its showCompanyWidgets is. These
 * tests hold the renderers to those strings: each field of Company changed alone must change a
 * file only if it changes the string, so a template that later showed more of a company fails
 * here rather than leave stale files in incremental builds.
 */
import { describe, expect, it } from "vitest";
import { createCheckSerializer } from "../../build/api-json/check.ts";
import type { EmitContext } from "../../build/context.ts";
import { emitBadges } from "../../build/emitters/badges.ts";
import { emitWidgets } from "../../build/emitters/company.ts";
import { emitEmbeds } from "../../build/emitters/embeds.ts";
import { showCompany, showCompanyWidgets } from "../../build/model/company-shows.ts";
import type { Company, Spammer } from "../../build/model/types.ts";
import { createUrls } from "../../core/urls.ts";
import { BASE_URL } from "../helpers/fixture.ts";

const base: Company = {
  id: 1, name: "Acme", slug: "acme", category: "crypto", website: null, aliases: [], reportsCount: 4, firstReportMs: 1_700_000_000_000, lastReportMs: 1_700_100_000_000,
  recentDays: Int32Array.from({ length: 14 }, (_, i) => i % 3), categoryCounts: Uint32Array.from({ length: 12 }, (_, i) => (i === 2 ? 3 : 0)),
};

/** Each field of Company changed alone, and every one of them (a field added later must be added here). */
const CHANGES: Partial<Company>[] = [
  { id: 2 },
  { name: "Acme Group" },
  { slug: "acme-group" },
  { category: "gambling" },
  { website: "https://acme.example" },
  { aliases: ["Acme Inc"] },
  { reportsCount: 50 },
  { firstReportMs: 1_600_000_000_000 },
  { lastReportMs: 1_800_000_000_000 },
  { recentDays: Int32Array.from({ length: 14 }, (_, i) => i) },
  { recentDays: Int32Array.from({ length: 14 }, (_, i) => (i < 7 ? i % 3 : 9)) },
  { categoryCounts: Uint32Array.from({ length: 12 }, (_, i) => i) },
];

describe("the strings an incremental build compares", () => {
  it("change with every field of Company", () => {
    expect(new Set(CHANGES.flatMap((c) => Object.keys(c)))).toEqual(new Set(Object.keys(base)));
  });

  it("showCompany: a check file shows of a company its name and slug, nothing more", () => {
    const serialize = createCheckSerializer(createUrls(BASE_URL));
    const other: Company = { ...base, id: 9, name: "Beta", slug: "beta" };
    const spammer = (companies: Company[]): Spammer => ({
      username: "someone", reportsCount: 3, uniqueReports: 2, confidenceMax: 90, firstSeenMs: 1_700_000_000_000, lastSeenMs: 1_700_000_000_000,
      last7Days: 1, previous7Days: 3, categories: ["crypto"], companies,
    });
    for (const change of CHANGES) {
      const changed = { ...base, ...change };
      const differs = serialize(spammer([changed, other])) !== serialize(spammer([base, other]));
      expect(differs, Object.keys(change)[0]).toBe(showCompany(changed) !== showCompany(base));
    }
  });

  it("showCompanyWidgets: a company's badge, shields JSON, card, widget and embeds show what it holds, nothing more", () => {
    const files = (company: Company) => {
      const ctx = { model: { ranked: [company], unchangedCompanies: new Set() }, urls: createUrls(BASE_URL), unchanged: false } as unknown as EmitContext;
      const made = [...emitBadges(ctx), ...emitWidgets(ctx), ...emitEmbeds(ctx)].filter((f) => f.path.includes(company.slug));
      expect(made).toHaveLength(9);
      return made.map((f) => String(f.data)).join("\n");
    };
    const before = files(base);
    for (const change of CHANGES) {
      const changed = { ...base, ...change };
      // A changed slug changes every path, so compare what the files say with the slug put back.
      const after = files(changed).replaceAll(changed.slug, base.slug);
      const differs = after !== before || changed.slug !== base.slug;
      expect(differs, Object.keys(change)[0]).toBe(showCompanyWidgets(changed) !== showCompanyWidgets(base));
    }
  });
});
