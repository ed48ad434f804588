/**
 * The one escaper for markup (HTML, SVG, feeds): every text node and attribute value goes
 * through it. Control characters other than tab, newline and carriage return are dropped: the C0
 * ones because XML 1.0 cannot carry them at all, the C1 ones (U+0080–U+009F, mojibake from a
 * Latin-1 export) because XML 1.0 only tolerates them, XML 1.1 forbids them and nothing draws them.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/g;
const SPECIAL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeMarkup(text: string): string {
  return removeControlCharacters(text).replace(SPECIAL, (c) => ENTITIES[c]!);
}

/** The same control characters dropped from text that is not markup (CSV cells, feed text). */
export function removeControlCharacters(text: string): string {
  return text.replace(CONTROL, "");
}
