/**
 * How many typos a query is from the start of a text, counted as a reader counts them: a letter
 * replaced, added or left out, two neighbours swapped (a space and a letter too: a moved space),
 * and two letters swapped across a space ("luma ogency" for "lumo agency") are one edit each.
 * bench/search-labelled.ts drops a typo query when another item is as few edits from it as its
 * own: its label would then be a guess, right or wrong whatever the ranking.
 */

const SPACE = 32;
const FAR = 1 << 20;

/**
 * The fewest edits between `query` and some prefix of `text` (both folded), or `max` + 1 when
 * more than `max`: a banded optimal-string-alignment distance with a free end in the text.
 */
export function countTyposFromStart(query: string, text: string, max: number): number {
  const m = query.length;
  const n = Math.min(text.length, m + max);
  const rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  for (let j = 0; j <= n; j++) rows[0]![j] = j <= max ? j : FAR;
  for (let i = 1; i <= m; i++) {
    const row = rows[i % 4]!;
    const up = rows[(i - 1) % 4]!;
    const up2 = rows[(i - 2 + 4) % 4]!;
    const up3 = rows[(i - 3 + 4) % 4]!;
    let best = FAR;
    for (let j = 0; j <= n; j++) {
      if (j < i - max || j > i + max) {
        row[j] = FAR;
        continue;
      }
      if (j === 0) {
        row[j] = i;
        best = Math.min(best, i);
        continue;
      }
      const q = query.charCodeAt(i - 1);
      const t = text.charCodeAt(j - 1);
      let d = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + (q === t ? 0 : 1));
      if (i >= 2 && j >= 2 && q === text.charCodeAt(j - 2) && query.charCodeAt(i - 2) === t && q !== t) d = Math.min(d, up2[j - 2]! + 1);
      if (i >= 3 && j >= 3 && query.charCodeAt(i - 2) === SPACE && text.charCodeAt(j - 2) === SPACE && q === text.charCodeAt(j - 3) && query.charCodeAt(i - 3) === t && q !== t) d = Math.min(d, up3[j - 3]! + 1);
      row[j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  let result = FAR;
  const last = rows[m % 4]!;
  for (let j = Math.max(0, m - max); j <= n; j++) result = Math.min(result, last[j]!);
  return Math.min(result, max + 1);
}
