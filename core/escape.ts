/**
 * The one escaper for markup (HTML now, SVG and feeds later): every text node and attribute value
 * goes through it. Control characters other than tab, newline and carriage return are dropped,
 * because XML 1.0 cannot carry them at all and browsers show them as garbage.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;
const SPECIAL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeMarkup(text: string): string {
  return removeControlCharacters(text).replace(SPECIAL, (c) => ENTITIES[c]!);
}

/** The same control characters dropped from text that is not markup (CSV cells, feed text). */
export function removeControlCharacters(text: string): string {
  return text.replace(CONTROL, "");
}
