/** A `_headers` file (Netlify, Cloudflare Pages) read back: its rules in order, each path with its headers as written. */
export interface HeaderRule {
  pattern: string;
  headers: Record<string, string>;
}

export function parseHeaderRules(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      rules.push({ pattern: line.trim(), headers: {} });
      continue;
    }
    const colon = line.indexOf(":");
    rules.at(-1)!.headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return rules;
}
