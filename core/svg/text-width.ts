/**
 * Text width without fonts: every code point gets a width from the Verdana table
 * (./verdana-widths.ts) or from its class below, in tenths of a pixel at 11px. Sums stay
 * integers, so a text measures the same on every machine and every run (the build is
 * byte-deterministic). Where we cannot know the glyph we over-estimate: a box a little too wide
 * looks fine, a clipped name does not. The classes are explicit code point ranges, not
 * `\p{…}` regexes, whose answers change with the Unicode version of the Node that runs them.
 */
import { removeControlCharacters } from "../escape.ts";
import { VERDANA_11_TENTHS } from "./verdana-widths.ts";

/** The size the table was measured at; other sizes scale linearly. */
const BASE_FONT_SIZE = 11;
/** East Asian wide and fullwidth characters: CJK fonts draw them one em wide. */
const WIDE_TENTHS = 110;
/** Emoji and pictographs: colour emoji fonts advance about 1.25 em, so 1.27 em is safe. */
const EMOJI_TENTHS = 140;
/** Anything else (other scripts, unassigned, lone surrogates): the widest ASCII glyph, `%`. */
const FALLBACK_TENTHS = 120;
const ELLIPSIS = "…";
/** U+2026 is outside the table; Verdana draws it 1 em wide (badgen's table says 110). */
const ELLIPSIS_TENTHS = 110;

type Range = readonly [first: number, last: number];

/**
 * Drawn with no advance: C0/C1 controls (the escaper drops C0 ones anyway), combining marks
 * (they sit on the previous letter), and invisible format characters (joiners, bidi controls,
 * variation selectors, tags).
 */
const ZERO_WIDTH: readonly Range[] = [
  [0x0000, 0x001f], [0x007f, 0x009f], [0x00ad, 0x00ad], [0x0300, 0x036f], [0x0483, 0x0489], [0x0591, 0x05bd],
  [0x05bf, 0x05bf], [0x05c1, 0x05c2], [0x05c4, 0x05c5], [0x05c7, 0x05c7], [0x0610, 0x061a], [0x061c, 0x061c],
  [0x064b, 0x065f], [0x0670, 0x0670], [0x06d6, 0x06dc], [0x06df, 0x06e4], [0x06e7, 0x06e8], [0x06ea, 0x06ed],
  [0x0e31, 0x0e31], [0x0e34, 0x0e3a], [0x0e47, 0x0e4e], [0x180b, 0x180f], [0x1ab0, 0x1aff], [0x1dc0, 0x1dff],
  [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x20d0, 0x20ff], [0xfe00, 0xfe0f], [0xfe20, 0xfe2f],
  [0xfeff, 0xfeff], [0xe0000, 0xe007f], [0xe0100, 0xe01ef],
];

/** East Asian Wide and Fullwidth blocks: Hangul, CJK, kana, fullwidth forms. */
const WIDE: readonly Range[] = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
  [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60],
  [0xffe0, 0xffe6], [0x1b000, 0x1b2ff], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
];

/** Emoji and pictographic blocks (misc symbols, dingbats, the emoji planes). */
const EMOJI: readonly Range[] = [
  [0x231a, 0x231b], [0x2328, 0x2328], [0x23cf, 0x23cf], [0x23e9, 0x23fa], [0x2600, 0x27bf], [0x2934, 0x2935],
  [0x2b05, 0x2b55], [0x1f000, 0x1faff],
];

const TABLE = new Map<number, number>();
for (const { start, widths } of VERDANA_11_TENTHS) widths.forEach((w, i) => TABLE.set(start + i, w));

function isIn(ranges: readonly Range[], codePoint: number): boolean {
  for (const [first, last] of ranges) if (codePoint >= first && codePoint <= last) return true;
  return false;
}

/** One code point's advance in tenths of a pixel at 11px. */
function getCodePointTenths(codePoint: number): number {
  // Where the table and the zero-width ranges overlap (soft hyphen, Cyrillic combining marks)
  // the table says 0 as well, so the common case can go first.
  const known = TABLE.get(codePoint);
  if (known !== undefined) return known;
  if (isIn(ZERO_WIDTH, codePoint)) return 0;
  if (codePoint === 0x2026) return ELLIPSIS_TENTHS;
  if (isIn(WIDE, codePoint)) return WIDE_TENTHS;
  if (isIn(EMOJI, codePoint)) return EMOJI_TENTHS;
  return FALLBACK_TENTHS;
}

/**
 * Width in tenths of a pixel at 11px. Counts code points, so a surrogate pair (an emoji) is one
 * character; a lone surrogate is written out as U+FFFD and measured with the fallback.
 */
export function measureTenths(text: string): number {
  let total = 0;
  for (const char of text) total += getCodePointTenths(char.codePointAt(0)!);
  return total;
}

/** Width in pixels at `fontSize`. */
export function measureText(text: string, fontSize = BASE_FONT_SIZE): number {
  return (measureTenths(text) * fontSize) / (BASE_FONT_SIZE * 10);
}

/**
 * `text` cut to fit `maxWidth` pixels at `fontSize`, with an ellipsis when anything was cut.
 * Cuts between code points, never inside a surrogate pair; combining marks stay with the letter
 * before them (they are zero-width, so they always fit), and a joiner left dangling at the cut
 * (half an emoji sequence) goes.
 */
export function truncateToWidth(text: string, maxWidth: number, fontSize = BASE_FONT_SIZE): string {
  const budget = Math.floor((maxWidth * BASE_FONT_SIZE * 10) / fontSize);
  if (measureTenths(text) <= budget) return text;
  const room = budget - ELLIPSIS_TENTHS;
  if (room < 0) return "";
  const kept: string[] = [];
  let used = 0;
  for (const char of text) {
    const width = getCodePointTenths(char.codePointAt(0)!);
    if (used + width > room) break;
    kept.push(char);
    used += width;
  }
  while (kept.length > 0 && (kept[kept.length - 1] === "\u200d" || kept[kept.length - 1] === " ")) kept.pop();
  return kept.join("") + ELLIPSIS;
}

/**
 * What a name looks like on one SVG line: runs of white space (tabs and newlines included) as
 * one space, trimmed, the way SVG's default white-space handling draws them; measuring this
 * form measures what is drawn. Control characters go first, as the markup escaper drops them.
 */
export function toDisplayText(text: string): string {
  return removeControlCharacters(text)
    .replace(/[\t\n\r\f\v \u00a0\u2028\u2029]+/g, " ")
    .trim();
}
