/**
 * Name order from DESIGN ("Orders"): lower-cased, compared by code point, never by locale, so
 * the order does not depend on the machine's ICU data.
 */
export function compareCodePoints(a: string, b: string): number {
  // JS string comparison is by UTF-16 code unit; that differs from code-point order only for
  // astral characters against U+E000..U+FFFF, so compare code points explicitly there.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && x <= 0xdfff && y >= 0xd800 && y <= 0xdfff) return x - y;
    const cx = a.codePointAt(i)!;
    const cy = b.codePointAt(i)!;
    return cx - cy;
  }
  return a.length - b.length;
}

export function compareNames(a: string, b: string): number {
  return compareCodePoints(a.toLowerCase(), b.toLowerCase());
}
