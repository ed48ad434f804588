import type Database from "better-sqlite3";
import { slugify } from "../../core/transliterate.ts";
import type { Random } from "./random.ts";
import { FIRST_NAMES_CYRILLIC, FIRST_NAMES_LATIN, HOSTILE_NAMES, LAST_NAMES_CYRILLIC, LAST_NAMES_LATIN } from "./names.ts";

/** People named in complaints (managers, recruiters, "investment advisers"). Returns the count. */
export function generatePeople(db: Database.Database, random: Random, count: number, companies: number): number {
  const insert = db.prepare("INSERT INTO people (id, name, slug, avatar, company_id) VALUES (?, ?, ?, ?, ?)");
  const usedSlugs = new Set<string>();
  for (let id = 1; id <= count; id++) {
    const cyrillic = random.chance(0.35);
    const name =
      id % 97 === 13
        ? HOSTILE_NAMES[(id - 13) / 97 % HOSTILE_NAMES.length]!
        : cyrillic
          ? `${random.pick(FIRST_NAMES_CYRILLIC)} ${random.pick(LAST_NAMES_CYRILLIC)}`
          : `${random.pick(FIRST_NAMES_LATIN)} ${random.pick(LAST_NAMES_LATIN)}`;
    let slug = slugify(name) || `person-${id}`;
    const base = slug;
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${base}-${n}`;
    usedSlugs.add(slug);
    const avatar = random.chance(0.6) ? `/avatars/${slug}.png` : null;
    const companyId = random.chance(0.5) ? 1 + random.int(companies) : null;
    insert.run(id, name, slug, avatar, companyId);
  }
  return count;
}
