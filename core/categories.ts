/**
 * The category enum of the reference ("Category (string enum)"). The array order is the
 * enum order, which DESIGN uses as the tie-break when two categories are equally frequent.
 */
export const CATEGORIES = [
  "gambling",
  "crypto",
  "nutra",
  "traffic",
  "affiliate",
  "job",
  "adult",
  "forex",
  "tools",
  "payments",
  "infobiz",
  "other",
] as const;

export type Category = (typeof CATEGORIES)[number];

const LABELS: Record<Category, string> = {
  gambling: "Gambling",
  crypto: "Crypto",
  nutra: "Nutra",
  traffic: "Traffic arbitrage",
  affiliate: "Affiliate networks",
  job: "Job offers",
  adult: "Adult",
  forex: "Forex",
  tools: "Tools and services",
  payments: "Payments",
  infobiz: "Info business",
  other: "Other",
};

const INDEX = new Map<string, number>(CATEGORIES.map((c, i) => [c, i]));

export function isCategory(value: unknown): value is Category {
  return typeof value === "string" && INDEX.has(value);
}

/** Position in the enum, or -1 for anything that is not a category. */
export function getCategoryIndex(value: string): number {
  return INDEX.get(value) ?? -1;
}

export function getCategoryLabel(category: Category): string {
  return LABELS[category];
}

/**
 * Categories present in `counts` (indexed like CATEGORIES), most frequent first; equal counts
 * keep enum order. Zero counts are left out.
 */
export function rankCategories(counts: ArrayLike<number>): Category[] {
  return rankCategoryIndexes(counts).map((i) => CATEGORIES[i]!);
}

/** rankCategories as positions in CATEGORIES (how the build stores them per username). */
export function rankCategoryIndexes(counts: ArrayLike<number>): number[] {
  const ranked: number[] = [];
  for (let i = 0; i < CATEGORIES.length; i++) if ((counts[i] ?? 0) > 0) ranked.push(i);
  // Array.prototype.sort is stable, so ties stay in enum order.
  return ranked.sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0));
}
