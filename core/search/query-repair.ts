/**
 * Word-by-word readings of a query, chosen by how plausible each reading is in the corpus (the
 * global searcher passes its n-gram table's opinion). Whole-query variants (normalize.ts) miss
 * two common cases:
 *
 * - words typed with different layouts active: "ешуч сеть" for "Tiex сеть", or
 *   "cthutq cvbhyjd stataqutek" for "Сергей Смирнов Stataqutek";
 * - Latin names written in Cyrillic by sound or by letter, where one transliteration table cannot
 *   be right for every word: "валлет" is "wallet" (в → w), "паиоут" is "payout" (и → y),
 *   "срипто" is "crypto" (с → c), yet "спот" is "spot".
 *
 * The same plausibility decides which of a query's readings are worth a fuzzy search at all
 * (getFuzzyVariants), and which reading one edit away a misspelt query most likely stands for
 * (getOneEditRepair).
 */
import { transliterateCyrillic } from "../transliterate.ts";
import { GRAM_PAD } from "./global-grams.ts";
import { foldText, hasCyrillic, swapKeyboardLayout } from "./normalize.ts";
import type { QueryVariant } from "./normalize.ts";

export type Plausibility = (text: string) => number;

/**
 * Each word read as typed or with the other layout, whichever `plausibility` prefers (higher is
 * likelier). Undefined for one-word queries (the whole-query swap covers them) or when no word
 * changes.
 */
export function getWordwiseLayoutVariant(query: string, plausibility: Plausibility): string | undefined {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word.length > 0);
  if (words.length < 2) return undefined;
  let changed = false;
  const read = words.map((word) => {
    const typed = foldText(word);
    const swapped = foldText(swapKeyboardLayout(word));
    if (swapped.length === 0 || plausibility(swapped) <= plausibility(typed)) return typed;
    changed = true;
    return swapped;
  });
  return changed ? read.filter((word) => word.length > 0).join(" ") : undefined;
}

// Other Latin spellings of Cyrillic letters, beside the slug transliteration's.
const LATIN_ALTERNATIVES: Record<string, readonly string[]> = {
  с: ["c"], в: ["w"], и: ["y"], й: ["i", "j"], к: ["c"], х: ["h"], ц: ["c"], ж: ["j"], ю: ["ju", "u"],
  я: ["ja", "ia"], е: ["ye"], кс: ["x"], ы: ["i"],
};
const BEAM = 4;

/**
 * The folded Cyrillic query transliterated word by word, each word spelt the likeliest way among
 * the slug transliteration and the alternatives above (a beam search over letters, BEAM wide, so
 * the work stays linear in the word). Undefined when that is just the slug transliteration.
 */
export function getWordwiseLatinVariant(folded: string, plausibility: Plausibility): string | undefined {
  if (!hasCyrillic(folded)) return undefined;
  const standard = transliterateCyrillic(folded);
  const words = folded.split(" ").map((word) => (hasCyrillic(word) ? spellLikeliest(word, plausibility) : word));
  const read = words.join(" ");
  return read === standard ? undefined : read;
}

/** Spellings likeliest first; each is scored once (a sort comparator would ask many times). */
function rankSpellings(spellings: string[], plausibility: Plausibility): string[] {
  return spellings
    .map((spelling) => ({ spelling, score: plausibility(spelling) }))
    .sort((a, b) => b.score - a.score || (a.spelling < b.spelling ? -1 : 1))
    .map((scored) => scored.spelling);
}

function spellLikeliest(word: string, plausibility: Plausibility): string {
  let beam = [""];
  for (let i = 0; i < word.length; ) {
    const step = LATIN_ALTERNATIVES[word.slice(i, i + 2)] !== undefined ? 2 : 1;
    const letters = word.slice(i, i + step);
    const options = [transliterateCyrillic(letters), ...(LATIN_ALTERNATIVES[letters] ?? [])];
    const next = beam.flatMap((prefix) => options.map((option) => prefix + option));
    beam = options.length === 1 ? next : rankSpellings([...new Set(next)], plausibility).slice(0, BEAM);
    i += step;
  }
  return rankSpellings(beam, plausibility)[0] ?? "";
}

/** How much less plausible than the other reading of the same keys a reading may be and still be searched fuzzily. */
const LAYOUT_PLAUSIBILITY_GAP = 1.5;

/**
 * Which variants get fuzzy candidates (n-gram votes), the costly part of the prefilter:
 * - not the Cyrillic spelling of a Latin query: the index holds a Latin spelling of every
 *   Cyrillic text, which the query as typed reaches; the Cyrillic spelling still finds exact and
 *   prefix matches;
 * - of the Latin spellings of a Cyrillic query, only the last: the word-by-word likeliest one
 *   (getWordwiseLatinVariant) when there is one, which is the slug transliteration wherever that
 *   reads likelier. The slug spelling would mostly re-find, through their transliterated texts,
 *   the Cyrillic names the query as typed already reaches; it still finds exact and prefix
 *   matches (bench: same recall, 700 typo queries, and a vote fewer per Cyrillic query);
 * - of the query as typed and its other-layout readings (the same keys read two ways, one of them
 *   gibberish), only those nearly as plausible as the best: in the bench corpus the wrong reading
 *   is 2 to 8 points less plausible, and the right one at most 1.25 below the wrong one.
 */
export function getFuzzyVariants(variants: readonly QueryVariant[], plausibility: Plausibility): boolean[] {
  const keyed = variants.map((v) => (v.kind === "typed" || v.kind === "layout" ? plausibility(v.text) : NaN));
  const best = Math.max(...keyed.filter((p) => !Number.isNaN(p)));
  const likeliestLatin = variants.findLastIndex((v) => v.kind === "latin");
  return variants.map(
    (v, i) => v.kind !== "cyrillic" && (v.kind !== "latin" || i === likeliestLatin) && (Number.isNaN(keyed[i]!) || keyed[i]! >= best - LAYOUT_PLAUSIBILITY_GAP),
  );
}

/** `padded` (GRAM_PAD + text + GRAM_PAD): how many documents hold its trigram at i. */
export type TrigramFrequency = (padded: string, i: number) => number;

/** How much likelier (GramVoter plausibility) a one-edit reading must be than the query as typed (the labelled set: 0.1 to 0.3 find the same, within a query). */
const REPAIR_GAIN = 0.1;
/**
 * What a reading split by an added space must make up: the two word-boundary trigrams it adds are
 * common in any text, so a split reads likelier than it is ("орзо" → "ор зо" beat "розо").
 */
const SPLIT_COST = 0.3;
/** Edits are tried around this many of the query's rarest trigrams. */
const REPAIR_SPOTS = 2;

/**
 * The likeliest reading of `folded` one edit away that fuse.js's n-gram neighbours would not
 * suggest: two neighbours swapped ("finvxe" → "finvex"), a space moved, dropped or added
 * ("lum oagency", "lumo age ncy", "lumoagency" → "lumo agency"), two letters swapped across a
 * space ("luma ogency"). Such an edit breaks up to four of the query's trigrams, so the intended
 * name may share fewer grams with it than names two real typos away do, and the n-gram vote
 * passes it over. A typo makes rare trigrams: edits are tried around the query's rarest ones,
 * and the likeliest reading wins if it is REPAIR_GAIN likelier than the query. Undefined if none is.
 */
export function getOneEditRepair(folded: string, frequency: TrigramFrequency, plausibility: Plausibility): string | undefined {
  const padded = GRAM_PAD + folded + GRAM_PAD;
  // The REPAIR_SPOTS rarest trigrams, the first of equals.
  const spots: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i + 2 < padded.length; i++) {
    const count = frequency(padded, i);
    let k = spots.length;
    while (k > 0 && counts[k - 1]! > count) k--;
    if (k >= REPAIR_SPOTS) continue;
    spots.splice(k, 0, i);
    counts.splice(k, 0, count);
    spots.length = counts.length = Math.min(spots.length, REPAIR_SPOTS);
  }
  // Trigram i of the padded text covers folded[i - 1 .. i + 1]: edits at i - 2 .. i + 1 can change it.
  const positions: number[] = [];
  for (const at of spots) for (let p = at - 2; p <= at + 1; p++) if (p >= 0 && p < folded.length && !positions.includes(p)) positions.push(p);
  let best: string | undefined;
  let bestPlausibility = plausibility(folded) + REPAIR_GAIN;
  for (const p of positions) {
    for (const reading of getOneEditReadings(folded, p)) {
      const likelihood = plausibility(reading) - (reading.length > folded.length ? SPLIT_COST : 0);
      if (likelihood > bestPlausibility) {
        best = reading;
        bestPlausibility = likelihood;
      }
    }
  }
  return best;
}

/** The readings of `folded` with one edit at p (above). */
function getOneEditReadings(folded: string, p: number): string[] {
  const readings: string[] = [];
  const here = folded[p]!;
  const next = folded[p + 1];
  if (next !== undefined && next !== here) readings.push(folded.slice(0, p) + next + here + folded.slice(p + 2));
  if (here === " ") {
    readings.push(folded.slice(0, p) + folded.slice(p + 1));
    const before = folded[p - 1];
    if (before !== undefined && next !== undefined && before !== next && before !== " " && next !== " ") readings.push(folded.slice(0, p - 1) + next + " " + before + folded.slice(p + 2));
  } else if (p > 0 && folded[p - 1] !== " ") readings.push(`${folded.slice(0, p)} ${folded.slice(p)}`);
  return readings;
}
