/**
 * Docs that cannot drift: every relative link in the project's Markdown (README, guides under
 * docs/, ARCHITECTURE, CHANGELOG, SECURITY) points at a file of the checkout, and every anchor at
 * a heading of its page, with the anchors GitHub makes (lower-cased, punctuation dropped, spaces
 * as hyphens, repeats numbered); every flag of every command is named in the README or a guide;
 * and every route of the table is named in a guide.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { BENCH, BUILD, DEPLOY, FINGERPRINTS, HOSTING, SAMPLE, SERVE } from "../../cli/flag-table.ts";
import { ROUTES } from "../../core/routes/table.ts";
import { listMarkdownPages } from "../helpers/markdown-pages.ts";

const ROOT = join(import.meta.dirname, "../..");
const PAGES = listMarkdownPages(ROOT);

/** The anchors GitHub gives a page's headings. */
function listAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
    seen.set(slug, n + 1);
  }
  return anchors;
}

/** Every inline link target outside code (fenced blocks and `code spans`). */
function listLinks(markdown: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const text = line.replace(/`[^`]*`/g, "");
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push(match[1]!);
  }
  return links;
}

describe("the Markdown pages", () => {
  it("are found (README and the guides)", () => {
    expect(PAGES).toContain("README.md");
    expect(PAGES.filter((page) => page.startsWith("docs/")).length).toBeGreaterThan(1);
  });

  it.each(PAGES)("%s: every relative link reaches a file, and every anchor a heading", (page) => {
    const text = readFileSync(join(ROOT, page), "utf8");
    const broken: string[] = [];
    for (const link of listLinks(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
      const [path, anchor] = link.split("#") as [string, string | undefined];
      const target = path === "" ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link}: no ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor === undefined || !target.endsWith(".md") || statSync(target).isDirectory()) continue;
      if (!listAnchors(readFileSync(target, "utf8")).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${relative(ROOT, target)}`);
    }
    expect(broken).toEqual([]);
  });
});

describe("the flag table in the docs", () => {
  it("names every flag of every command somewhere a reader looks (README or docs/)", () => {
    const docs = PAGES.filter((page) => page === "README.md" || page.startsWith("docs/")).map((page) => readFileSync(join(ROOT, page), "utf8")).join("\n");
    const missing = [SAMPLE, BUILD, SERVE, HOSTING, FINGERPRINTS, BENCH, DEPLOY].flatMap((command) =>
      Object.keys(command.flags).filter((flag) => !docs.includes(`--${flag}`)).map((flag) => `${command.name} --${flag}`),
    );
    expect(missing).toEqual([]);
  });
});

describe("the route table in the docs", () => {
  it("names every route, method and path, in a guide under docs/", () => {
    const guides = PAGES.filter((page) => page.startsWith("docs/")).map((page) => readFileSync(join(ROOT, page), "utf8")).join("\n");
    const missing = ROUTES.filter((route) => !guides.includes(`${route.method} ${route.path}`)).map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
  });
});
