/** The project's Markdown pages: those at the root (README, CONTRIBUTING, …) and every page under docs/. */
import { readdirSync } from "node:fs";
import { join } from "node:path";

export function listMarkdownPages(root: string): string[] {
  return [
    ...readdirSync(root).filter((name) => name.endsWith(".md")),
    ...(readdirSync(join(root, "docs"), { recursive: true }) as string[])
      .filter((name) => name.endsWith(".md") && !name.split(/[\\/]/).includes("node_modules"))
      .map((name) => `docs/${name.replace(/\\/g, "/")}`)
      .sort(),
  ];
}
