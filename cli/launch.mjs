/**
 * `npm run serve` runs the server as JavaScript compiled from the sources, not through the
 * TypeScript loader: `node cli/launch.mjs serve [flags]` makes sure the compiled server is the
 * sources' as they are now, then runs it in this process. Plain JavaScript, so that nothing is
 * compiled before it runs.
 *
 * The compiled server is one file (esbuild bundles cli/serve.ts with everything it imports, the
 * packages' code too: loading h3's and TypeBox's hundred-odd modules one by one took a fifth of
 * the start), written under node_modules/.cache, where
 * `npm install` (its `prepare` script) makes it first. Its first line names every source that
 * went into it, with a hash of each: it is used only while every one of them hashes the same, so
 * it is never stale against the sources, whoever edited them and however their times read. A
 * source changed, or the file missing: it is made again (some 30 ms) and replaced by a rename, so
 * servers starting at the same moment each read a whole one. Where it cannot be written (a
 * read-only checkout), the server runs from the sources through the TypeScript loader, as
 * before, and says so.
 *
 * `node cli/launch.mjs compile` only makes it (the `prepare` script).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const ENTRIES = { serve: "cli/serve.ts" };
/** Hashed besides the bundle's inputs: they change how it is compiled (esbuild's own version among them). */
const SETTINGS = ["tsconfig.json", "package.json", "node_modules/esbuild/package.json"];
const STAMP = "// compiled from: ";

/** The compiled file of an entry, made again first if any of its sources changed; null where it cannot be written. */
export async function ensureCompiled(name, root = ROOT) {
  const entry = ENTRIES[name];
  if (!entry) throw new Error(`no compiled entry "${name}" (one of: ${Object.keys(ENTRIES).join(", ")})`);
  const out = join(root, "node_modules/.cache/spamcheck-api", `${name}.mjs`);
  if (isFresh(out, root)) return out;
  return (await compile(entry, out, root)) ? out : null;
}

/** Whether the file at `out` was compiled from the sources as they are now. */
export function isFresh(out, root = ROOT) {
  let stamp;
  try {
    const code = readFileSync(out, "utf8");
    const line = code.slice(0, code.indexOf("\n"));
    if (!line.startsWith(STAMP)) return false;
    stamp = JSON.parse(line.slice(STAMP.length));
  } catch {
    return false;
  }
  return Object.entries(stamp).every(([path, hash]) => hashFile(join(root, path)) === hash);
}

async function compile(entry, out, root) {
  const esbuild = await import("esbuild");
  // esbuild compiles in a service process of its own, stopped once done: the server runs alone.
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    // Not needed at start: ioredis is imported only with --redis, as the package it is.
    external: ["ioredis"],
    // Packages in CommonJS call require(), which a module has not got of its own.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    metafile: true,
    write: false,
    logLevel: "error",
    legalComments: "none",
  }).finally(() => esbuild.stop());
  const sources = [...Object.keys(result.metafile.inputs), ...SETTINGS].sort();
  const stamp = Object.fromEntries(sources.map((path) => [path, hashFile(join(root, path))]));
  const code = `${STAMP}${JSON.stringify(stamp)}\n// esbuild ${esbuild.version}; made by cli/launch.mjs, do not edit\n${result.outputFiles[0].text}`;
  const temporary = `${out}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(temporary, code);
    renameSync(temporary, out);
    return true;
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // No folder to make it in: nothing was written.
    }
    process.emitWarning(`the compiled server cannot be written at ${relative(root, out)} (${error.code ?? error.message}): running from the TypeScript sources, which starts slower`);
    return false;
  }
}

function hashFile(path) {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("base64url").slice(0, 22);
  } catch {
    return null;
  }
}

async function main() {
  const [name = "", ...rest] = process.argv.slice(2);
  if (name === "compile") {
    for (const entry of Object.keys(ENTRIES)) await ensureCompiled(entry);
    return;
  }
  const compiled = await ensureCompiled(name);
  // The command reads its flags from argv, as when it is run itself.
  process.argv.splice(2, process.argv.length, ...rest);
  if (compiled) {
    await import(pathToFileURL(compiled).href);
    return;
  }
  const { register } = await import("tsx/esm/api");
  register();
  await import(pathToFileURL(join(ROOT, ENTRIES[name])).href);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
