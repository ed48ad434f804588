/**
 * Path templates: `/api/check/{identifier}` for URLs, `api/check/{identifier}.json` for the dist
 * file behind them. One parameter fills one path segment or part of one (`{slug}.svg`); a
 * parameter never holds a `/`.
 */

const PARAMETER = /\{([a-z_]+)\}/g;

export function listTemplateParams(template: string): string[] {
  return [...template.matchAll(PARAMETER)].map((m) => m[1]!);
}

/**
 * Fills a template. URL templates percent-encode each value (it becomes one segment); file
 * templates take values as they are (a file name is the decoded segment).
 */
export function fillTemplate(template: string, params: Readonly<Record<string, string | number>>, encode = false): string {
  return template.replace(PARAMETER, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${template}: no value for {${name}}`);
    return encode ? encodeURIComponent(String(value)) : String(value);
  });
}

/** A filler for hot paths (a million check files): the template split once, no regex per call. */
export function createFiller(template: string): (value: string | number) => string {
  const params = listTemplateParams(template);
  if (params.length !== 1) throw new Error(`${template}: createFiller takes a template with one parameter`);
  const [before, after] = template.split(`{${params[0]}}`) as [string, string];
  return (value) => before + value + after;
}

export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * Matches a concrete path against a template; the parameters (not decoded) or null. A
 * parameter matches one or more characters other than `/`; `patterns` narrows that per name.
 */
export function compileTemplate(template: string, patterns: Readonly<Record<string, string>> = {}): (path: string) => Record<string, string> | null {
  let source = "^";
  let last = 0;
  for (const match of template.matchAll(PARAMETER)) {
    source += escapeRegExp(template.slice(last, match.index));
    source += `(?<${match[1]}>${patterns[match[1]!] ?? "[^/]+"})`;
    last = match.index! + match[0].length;
  }
  source += `${escapeRegExp(template.slice(last))}$`;
  const regex = new RegExp(source, "u");
  return (path) => {
    const found = regex.exec(path);
    return found ? { ...found.groups } : null;
  };
}
