/**
 * Markdown that reads the same on any git host (CommonMark with GitHub's tables): text from the
 * route table put into lines, table cells and code, and the anchors GitHub gives headings, so a
 * generated page can link to its own sections.
 */

/**
 * Table prose as Markdown: its `code spans` stay as they are, and outside them a `<` is escaped,
 * since `<img>` would otherwise be taken for HTML (and dropped by the host's sanitiser).
 */
export function toMarkdownText(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, "&lt;")))
    .join("");
}

/** A table cell: one line, and a `|` escaped even inside a code span (GFM splits cells first). */
export function toTableCell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");
}

/** A code span that holds any text: a fence of more backticks than the text has in a row. */
export function toCodeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return longest === 0 ? `${fence}${text}${fence}` : `${fence} ${text} ${fence}`;
}

/** A fenced code block whose fence no line of the text can close. */
export function toCodeBlock(text: string, language = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

export function toTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(toTableCell).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/**
 * The anchors GitHub gives a page's headings, in page order: lower-cased, code marks dropped,
 * every character but letters, digits, spaces, `_` and `-` removed, spaces as hyphens, and a
 * repeated anchor numbered (`-1`, `-2`). One slugger per page, called once per heading.
 */
export function createAnchorSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const slug = heading.replace(/`/g, "").toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    return n === 0 ? slug : `${slug}-${n}`;
  };
}
