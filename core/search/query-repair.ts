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
 */
import { transliterateCyrillic } from "../transliterate.ts";
import { foldText, hasCyrillic, swapKeyboardLayout } from "./normalize.ts";

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
