/**
 * Precompressed variants: which files of a build get a `.gz` and a `.br` beside them, so that a
 * static host (nginx's `gzip_static`/`brotli_static`) or the live server can send them to a
 * client that accepts the encoding. One rule for every writer (build/writer: the disk writer and
 * the memory writer tests use) and for the tests that check what a build wrote; docs/operators.md
 * "Compression" gives the figures behind the bounds.
 */
import { ROUTES } from "./table.ts";
import { compileTemplate } from "./templates.ts";
import type { Media, Route } from "./types.ts";

export type Encoding = "gzip" | "br";

/** Brotli first: where a client accepts both, it is the smaller (35 % of the original against 41 %). */
export const ENCODINGS: readonly Encoding[] = ["br", "gzip"];

export const VARIANT_SUFFIX: Readonly<Record<Encoding, string>> = { gzip: ".gz", br: ".br" };

/**
 * Below 1 KiB a variant saves a few hundred bytes of an answer that fits in one TCP segment
 * either way, and costs two more files (two inodes, two 4 KiB blocks) per file of the build.
 */
export const MIN_VARIANT_SIZE = 1024;

/**
 * From 1 MiB on, no variants. The only compressible files that large are the dump CSVs (a gzip
 * download of their own, below) and the search index the server loads; the writer writes them
 * on the build's main thread, where compressing them would hold up every emitter (brotli of the
 * 152 MB spammer CSV of a million usernames takes seconds).
 */
export const MAX_VARIANT_SIZE = 1 << 20;

/** Text formats (by the extension the live server and nginx type files by); never `.gz`, `.bin`. */
const COMPRESSIBLE_EXTENSIONS = new Set(["json", "svg", "html", "csv", "txt", "rss", "atom", "xml"]);

const COMPRESSIBLE_MEDIA = new Set<Media>(["json", "problem", "svg", "html", "csv", "text", "rss", "atom", "feedJson"]);

/**
 * Files whose gzip copy is a route of its own (`dumps/{name}.csv` and `/dumps/{name}.csv.gz`):
 * that copy is a series of gzip members, a download, which browsers' and curl's decoders cut
 * after the first member when it is sent as the CSV's `Content-Encoding`; so the CSV gets no
 * variant at all, and a host must not send the `.gz` for it.
 */
const OWN_GZIP_ROUTES = (ROUTES as readonly Route[]).filter((r) => r.media === "gzip" && r.file?.endsWith(VARIANT_SUFFIX.gzip));
const HAS_OWN_GZIP = OWN_GZIP_ROUTES.map((r) => compileTemplate(r.file!.slice(0, -VARIANT_SUFFIX.gzip.length)));

function getExtension(path: string): string {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") ? path.slice(dot + 1) : "";
}

/** No variants: one list for every file that has none. */
const NO_ENCODINGS: readonly Encoding[] = Object.freeze([]);

/**
 * The encodings a build writes beside a file of `size` bytes at `path` (none for most files).
 * Always one of two lists, NO_ENCODINGS or ENCODINGS, so a caller may tell them apart by identity.
 */
export function listVariantEncodings(path: string, size: number): readonly Encoding[] {
  if (size < MIN_VARIANT_SIZE || size >= MAX_VARIANT_SIZE) return NO_ENCODINGS;
  if (!COMPRESSIBLE_EXTENSIONS.has(getExtension(path))) return NO_ENCODINGS;
  if (HAS_OWN_GZIP.some((match) => match(path) !== null)) return NO_ENCODINGS;
  return ENCODINGS;
}

/** The file a variant is of, and its encoding; null for a path that names no variant. */
export function parseVariantPath(path: string): { original: string; encoding: Encoding } | null {
  for (const encoding of ENCODINGS) {
    const suffix = VARIANT_SUFFIX[encoding];
    if (path.endsWith(suffix)) return { original: path.slice(0, -suffix.length), encoding };
  }
  return null;
}

/**
 * Whether a route's files can have variants, for the static hosts' rules: a compressible media
 * type and no gzip route of its own beside it. A file too small or too large simply has none,
 * and the host sends it as it is.
 */
export function hasVariants(route: Route): boolean {
  if (route.file === null || !COMPRESSIBLE_MEDIA.has(route.media)) return false;
  return !OWN_GZIP_ROUTES.some((r) => r.file === `${route.file}${VARIANT_SUFFIX.gzip}`);
}
