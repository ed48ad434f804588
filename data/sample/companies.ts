import type Database from "better-sqlite3";
import { CATEGORIES, type Category } from "../../core/categories.ts";
import { DAY_MS, formatInstant } from "../../core/time.ts";
import { slugify, transliterateCyrillic } from "../../core/transliterate.ts";
import { Random, WeightedPicker } from "./random.ts";
import {
  COMPANY_STEMS_CYRILLIC,
  COMPANY_STEMS_LATIN,
  COMPANY_SUFFIXES,
  COMPANY_TAILS_CYRILLIC,
  COMPANY_TAILS_LATIN,
  HOSTILE_NAMES,
  TLDS,
} from "./names.ts";

export interface SampleCompany {
  id: number;
  category: Category;
  /** Relative share of complaints; Zipf-like across companies, zero for a few. */
  popularity: number;
  /** Draws the day of a company-only complaint; each company has its own shape over time. */
  curve: (random: Random, firstDay: number, day0: number) => number;
}

const COMPANY_CATEGORY_WEIGHTS = [22, 18, 10, 12, 16, 5, 3, 5, 4, 3, 1.5, 0.5];

export function generateCompanies(db: Database.Database, random: Random, count: number, asOfMs: number): SampleCompany[] {
  const insert = db.prepare("INSERT INTO companies (id, name, slug, category, website, created_at) VALUES (?, ?, ?, ?, ?, ?)");
  const insertAlias = db.prepare("INSERT INTO company_aliases (company_id, alias) VALUES (?, ?)");
  const categories = new WeightedPicker(COMPANY_CATEGORY_WEIGHTS);
  const usedSlugs = new Set<string>();
  const usedNames = new Set<string>();
  const companies: SampleCompany[] = [];
  for (let id = 1; id <= count; id++) {
    const hostile = id <= HOSTILE_NAMES.length * 40 && id % 40 === 7 ? HOSTILE_NAMES[(id - 7) / 40] : undefined;
    const cyrillic = !hostile && random.chance(0.3);
    let name = hostile ?? makeName(random, cyrillic);
    for (let n = 2; usedNames.has(name.toLowerCase()); n++) name = `${name.replace(/ \d+$/, "")} ${n}`;
    usedNames.add(name.toLowerCase());
    let slug = slugify(name) || `company-${id}`;
    const base = slug;
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${base}-${n}`;
    usedSlugs.add(slug);
    const category = CATEGORIES[categories.pick(random)]!;
    const domain = `${slugify(transliterateCyrillic(name)).replace(/-/g, "").slice(0, 20) || "site" + id}.${random.pick(TLDS)}`;
    const website = random.chance(0.85) ? (random.chance(0.5) ? `https://${domain}` : `https://www.${domain}/`) : null;
    const createdMs = asOfMs - (60 + random.int(2000)) * DAY_MS;
    insert.run(id, name, slug, category, website, formatInstant(createdMs));
    for (const alias of makeAliases(random, name, domain, cyrillic)) insertAlias.run(id, alias);
    const popularity = random.chance(0.05) ? 0 : 1 / Math.pow(random.int(count) + 1, 0.9);
    companies.push({ id, category, popularity, curve: makeCurve(random) });
  }
  return companies;
}

function makeName(random: Random, cyrillic: boolean): string {
  if (cyrillic) return random.pick(COMPANY_STEMS_CYRILLIC) + random.pick(COMPANY_TAILS_CYRILLIC).toLowerCase();
  return random.pick(COMPANY_STEMS_LATIN) + random.pick(COMPANY_TAILS_LATIN) + random.pick(COMPANY_SUFFIXES);
}

function makeAliases(random: Random, name: string, domain: string, cyrillic: boolean): string[] {
  const aliases = new Set<string>();
  if (cyrillic) aliases.add(transliterateCyrillic(name));
  if (random.chance(0.4)) aliases.add(domain);
  const short = name.split(" ")[0]!;
  if (short !== name && random.chance(0.5)) aliases.add(short);
  if (random.chance(0.1)) aliases.add(name.toUpperCase());
  aliases.delete(name);
  return [...aliases];
}

/**
 * A company's complaints over time: steady, rising (a scheme that is just taking off), fading
 * (an old one), or a recent burst (a scandal this week).
 */
function makeCurve(random: Random): SampleCompany["curve"] {
  const shape = random.pick(["steady", "steady", "rising", "fading", "burst"] as const);
  return (r, firstDay, day0) => {
    const span = day0 - firstDay;
    switch (shape) {
      case "rising":
        return day0 - Math.floor(span * Math.pow(r.next(), 3));
      case "fading":
        return firstDay + Math.floor(span * Math.pow(r.next(), 2));
      case "burst":
        return r.chance(0.5) ? day0 - r.int(6) : firstDay + r.int(span + 1);
      default:
        return firstDay + r.int(span + 1);
    }
  };
}
