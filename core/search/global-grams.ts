/**
 * Global search's n-gram postings (global-votes.ts): every bigram and trigram of each document's
 * texts, space-padded so that a word start and a text start give the same grams. The build
 * writes them beside the index (`search/global.bin`), so that a server starts by reading 10 MB
 * (at a million usernames' catalog) instead of deriving them from the texts; a build without the
 * file (an older version's) has them derived at load, the same table either way.
 *
 * Layout (little-endian u32): bits, postings count, the 2^bits + 1 offsets, the postings.
 */
import type { GlobalSearchIndex } from "./global-index.ts";
import { buildGramPostings, type GramPostings } from "./gram-postings.ts";

export const GLOBAL_GRAM_BITS = 19;
/** Texts are padded with a space, so a text start and a word start give the same grams. */
export const GRAM_PAD = " ";

export function buildGlobalGrams(index: Pick<GlobalSearchIndex, "texts" | "textStarts">): GramPostings {
  return buildGramPostings(index.texts, index.textStarts, GLOBAL_GRAM_BITS, { kind: "padded", pad: GRAM_PAD });
}

const isLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

export function serializeGlobalGrams(grams: GramPostings): Uint8Array {
  if (!isLittleEndian) throw new Error("global search grams: big-endian hosts are not supported");
  const words = new Uint32Array(2 + grams.offsets.length + grams.postings.length);
  words[0] = grams.bits;
  words[1] = grams.postings.length;
  words.set(grams.offsets, 2);
  words.set(grams.postings, 2 + grams.offsets.length);
  return new Uint8Array(words.buffer);
}

/** The postings of `index` from their file's bytes (views, no copy when aligned); an error when they are not this index's. */
export function loadGlobalGrams(bytes: Uint8Array, index: Pick<GlobalSearchIndex, "titles">): GramPostings {
  if (!isLittleEndian) throw new Error("global search grams: big-endian hosts are not supported");
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 4));
  const bits = words[0]!;
  const count = words[1]!;
  const size = (1 << bits) + 1;
  if (bits !== GLOBAL_GRAM_BITS || words.length !== 2 + size + count) throw new Error("global search grams: the file does not fit its header (truncated, or of another version)");
  const offsets = words.subarray(2, 2 + size);
  const postings = words.subarray(2 + size);
  let last = 0;
  for (let p = 0; p < postings.length; p++) if (postings[p]! > last) last = postings[p]!;
  if (offsets[size - 1] !== count || (count > 0 && last >= index.titles.length)) throw new Error("global search grams: the file is not this index's");
  return { bits, offsets, postings };
}
