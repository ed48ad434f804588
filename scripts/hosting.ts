/**
 * `npm run hosting -- nginx --root DIR --listen ADDR [--upstream URL]`: prints the nginx
 * `server { }` block for a built dist, generated from the route table (core/hosting/nginx.ts).
 * Bad input — an unknown target, a root that is not a build, a bad address or upstream, an
 * unknown flag — is one line on stderr and exit status 2.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderNginxServer } from "../core/hosting/nginx.ts";
import { formatHelp, readFlags } from "./cli.ts";

const FLAGS = {
  root: { type: "string", description: "the build to serve: a dist folder, or the dist link (nginx then follows each new build)" },
  listen: { type: "string", description: "nginx listen address: PORT, HOST:PORT or [IPv6]:PORT" },
  upstream: { type: "string", description: "the live server (http://HOST:PORT) for what the files cannot answer; without it those get a 501 problem" },
} as const;
const USAGE = "npm run hosting -- nginx --root DIR --listen ADDR [--upstream URL]";
const TARGETS = ["nginx"];

function main(argv: string[]): string {
  if (argv.includes("--help") || argv.includes("-h")) return `${formatHelp(USAGE, FLAGS)}\n\nTargets: ${TARGETS.join(", ")}. Netlify and Cloudflare Pages read the _headers and _redirects files every build writes.`;
  const [target, ...rest] = argv;
  if (target === undefined || target.startsWith("-")) throw new Error(`name a target first (${TARGETS.join(", ")}): ${USAGE}`);
  if (!TARGETS.includes(target)) throw new Error(`unknown target ${JSON.stringify(target)}: the targets are ${TARGETS.join(", ")}`);
  let flags: ReturnType<typeof readFlags<typeof FLAGS>>;
  try {
    flags = readFlags(FLAGS, rest);
  } catch (error) {
    throw new Error(`${(error as Error).message.split("\n")[0]}: ${USAGE}`);
  }
  if (!flags.root) throw new Error(`--root is required: ${USAGE}`);
  if (!flags.listen) throw new Error(`--listen is required: ${USAGE}`);
  // The path as given (made absolute), not the build it points at: nginx follows the `dist` link
  // per request, so a newly published build is served without regenerating the block.
  const root = resolve(flags.root);
  for (const file of ["manifest.json", "build-report.json"]) {
    if (!existsSync(join(root, file))) throw new Error(`--root ${flags.root} is not a build: it has no ${file} (run npm run build first)`);
  }
  if (!/^(\d{1,5}|[A-Za-z0-9.-]+:\d{1,5}|\[[0-9A-Fa-f:.]+\]:\d{1,5})$/.test(flags.listen) || Number(flags.listen.split(":").pop()) > 65535) {
    throw new Error(`--listen must be PORT, HOST:PORT or [IPv6]:PORT, got ${JSON.stringify(flags.listen)}`);
  }
  if (flags.upstream !== undefined && !/^https?:\/\/[A-Za-z0-9.[\]:-]+(:\d{1,5})?\/?$/.test(flags.upstream)) {
    throw new Error(`--upstream must be http(s)://HOST[:PORT] with no path, got ${JSON.stringify(flags.upstream)}`);
  }
  if (/[\s;{}"'$\\]/.test(root)) throw new Error(`--root ${JSON.stringify(root)} has a character nginx would misread (space, quote, ; { } $ or \\)`);
  return renderNginxServer({ root, listen: flags.listen, upstream: flags.upstream });
}

try {
  process.stdout.write(`${main(process.argv.slice(2)).replace(/\n?$/, "\n")}`);
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
