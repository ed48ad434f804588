/**
 * The files of one build, as the file routes answer them. A build folder never changes once
 * published (its name is its manifest's hash), so what is learnt about a file holds for the
 * build's life: its size, its ETag, its precompressed siblings, and — for small files, within a
 * byte budget — its bytes, so a request for a hot file costs no system call and no hashing. A new
 * build gets a new store (DistSource), which is how a rebuild is picked up atomically.
 *
 * Large files (the weekly dumps, the search indexes at scale) have a budget of their own: one
 * that fits is read once, asynchronously, and held whole, so every download of it is one write of
 * the same bytes (no read, no copy per download: 1.1–1.4× nginx's `sendfile` where streaming it
 * ran at 0.3–0.6×, and a slow download holds nothing more); one that does not is streamed from
 * disk in constant memory. Either way its ETag is computed once per build by passing it through
 * SHA-256 — the same digest the manifest lists, so ETags are identical across identical rebuilds,
 * for small and large files alike.
 */
import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { LRUCache } from "lru-cache";
import { VARIANT_SUFFIX, listVariantEncodings, type Encoding } from "../core/routes/variants.ts";
import { GenerationCache } from "./generation-cache.ts";
import { readAt } from "./span-file.ts";

export interface FileStoreOptions {
  /** Bytes of small files held in memory, at most. */
  memoryBytes: number;
  /** Files larger than this are large files: read asynchronously, held within `largeMemoryBytes` or streamed. */
  maxMemoryFileBytes: number;
  /** Bytes of large files held in memory, at most (0: every large file is streamed from disk). */
  largeMemoryBytes: number;
}

/**
 * Held by default: the whole default sample's files, and the lists and top pages of a 1M build;
 * of large files, the weekly dumps up to ~200 000 usernames (14 MiB at 100 000).
 */
export const DEFAULT_FILE_STORE: FileStoreOptions = { memoryBytes: 64 << 20, maxMemoryFileBytes: 1 << 20, largeMemoryBytes: 32 << 20 };

export interface StoredFile {
  /** Path inside the build. */
  path: string;
  size: number;
  /** Strong ETag: the file's SHA-256, base64url, quoted (as every answer's ETag is, server/respond.ts). */
  etag: string;
  /** The bytes, for a file held in memory; null for one streamed from disk. */
  bytes: Buffer | null;
  /** Precompressed siblings on disk (`path.br`, `path.gz`), learnt on first use (the map once known). */
  encodings?: ReadonlyMap<Encoding, StoredFile> | Promise<ReadonlyMap<Encoding, StoredFile>>;
  /** Its own answer headers, made once: the rest are the answer's, shared by every file (server/send-file.ts). */
  ownHeaders: [[string, string], [string, string]];
}

/**
 * What each held entry costs beside its bytes and its path (the entry, its Buffer and memory of
 * its own, its two header pairs, the LRU's node), for the budget: measured at ~680 bytes for the
 * check files of a 100 000-username build (`--file-memory` is then what the held files cost).
 */
const ENTRY_OVERHEAD = 768;

/** What holding the file of `size` bytes at `path` counts against the budget. */
export function getHeldCost(path: string, size: number): number {
  return size + path.length * 2 + ENTRY_OVERHEAD;
}

/**
 * Reads of a streamed file in the app's answer (the first for its URL; later ones are pumped
 * straight to the socket in reused buffers, server/pump-file.ts): sixteen times Node's default,
 * fewer chunks through the socket for the same bytes, still constant memory: a slow download
 * holds a chunk or two.
 */
const STREAM_CHUNK_BYTES = 1024 * 1024;

/** Large files' entries (no bytes) are few; this bounds them anyway. */
const MAX_STREAMED_ENTRIES = 4096;

const NOT_A_FILE = new Set(["ENOENT", "EISDIR", "ENOTDIR", "ENAMETOOLONG"]);

/** The siblings of a file that has none. */
const NO_ENCODINGS: ReadonlyMap<Encoding, StoredFile> = new Map();

export class FileStore {
  readonly root: string;
  private readonly options: FileStoreOptions;
  private readonly held: GenerationCache<StoredFile>;
  private readonly streamed = new LRUCache<string, StoredFile>({ max: MAX_STREAMED_ENTRIES });
  /** Large files held whole, least recently used out first (one larger than the budget never is). */
  private readonly heldLarge: LRUCache<string, StoredFile> | null;
  private readonly loading = new Map<string, Promise<StoredFile | null>>();

  constructor(root: string, options: FileStoreOptions = DEFAULT_FILE_STORE) {
    this.root = root;
    this.options = options;
    this.held = new GenerationCache<StoredFile>({ maxSize: options.memoryBytes, sizeOf: (file) => getHeldCost(file.path, file.size) });
    // A file let go for another is streamed from then on (its ETag kept), never read whole again:
    // two files that do not fit together, asked in turn, would otherwise each be read and hashed
    // whole at every other request (the dumps of a 100 000-username build, latest and weekly CSV
    // with their gzip, are 34 MiB).
    const letGo = (file: StoredFile, path: string, reason: string) => {
      if (reason === "evict") this.streamed.set(path, { ...file, bytes: null });
    };
    this.heldLarge = options.largeMemoryBytes > 0 ? new LRUCache({ maxSize: options.largeMemoryBytes, sizeCalculation: (file) => file.size, dispose: letGo }) : null;
  }

  /**
   * The file at `path` (a checked path inside the build), or null when there is none: at once for
   * a file held or small enough to hold, a promise for a large one met for the first time.
   */
  get(path: string): StoredFile | null | Promise<StoredFile | null> {
    const known = this.held.get(path) ?? this.heldLarge?.get(path) ?? this.streamed.get(path);
    if (known) return known;
    const full = join(this.root, path);
    const found = readSmallFile(full, this.options.maxMemoryFileBytes);
    if (found === null) return null;
    if ("bytes" in found) {
      // Hashed once: kept while the budget allows; past it (or with a budget of 0) read and
      // hashed again on each request.
      const { bytes } = found;
      const file = makeStoredFile(path, bytes.byteLength, formatEtag(createHash("sha256").update(bytes)), bytes);
      if (getHeldCost(path, file.size) <= this.options.memoryBytes) this.held.set(path, file);
      return file;
    }
    const { size } = found;
    let pending = this.loading.get(path);
    if (!pending) {
      pending = (this.heldLarge && size <= this.options.largeMemoryBytes ? this.loadLarge(path, full, size) : this.loadStreamed(path, full, size)).finally(() => this.loading.delete(path));
      this.loading.set(path, pending);
    }
    return pending;
  }

  /**
   * A large file read whole and hashed (readAndHash), held while the budget allows. Hashing 32 MiB
   * at once would stall every other answer for some 30 ms; WebCrypto's digest on the thread pool
   * copies its input first, a second copy of the file while it runs.
   */
  private async loadLarge(path: string, full: string, size: number): Promise<StoredFile> {
    const bytes = Buffer.allocUnsafe(size);
    const file = makeStoredFile(path, size, await readAndHash(path, full, size, bytes), bytes);
    this.heldLarge!.set(path, file);
    return file;
  }

  /** A large file hashed in chunks: constant memory, its bytes read again at each answer. */
  private async loadStreamed(path: string, full: string, size: number): Promise<StoredFile> {
    const file = makeStoredFile(path, size, await readAndHash(path, full, size, null), null);
    this.streamed.set(path, file);
    return file;
  }

  /**
   * The precompressed siblings of a file, by coding: only where the build's rule
   * (core/routes/variants.ts) writes them — never the dumps' `.csv.gz`, a download of its own
   * that is no valid Content-Encoding of the CSV.
   */
  getEncodings(file: StoredFile): ReadonlyMap<Encoding, StoredFile> | Promise<ReadonlyMap<Encoding, StoredFile>> {
    if (file.encodings) return file.encodings;
    const encodings = listVariantEncodings(file.path, file.size);
    // Most files have none (under 1 KiB, or no text): known at once, without a promise.
    if (encodings.length === 0) return (file.encodings = NO_ENCODINGS);
    // Siblings are small files, read at once (no promise) like the file itself; a large one is hashed first.
    const siblings = encodings.map((encoding) => this.get(file.path + VARIANT_SUFFIX[encoding]));
    if (!siblings.some((sibling) => sibling instanceof Promise)) return (file.encodings = listFound(encodings, siblings as (StoredFile | null)[]));
    file.encodings = Promise.all(siblings).then((found) => (file.encodings = listFound(encodings, found)));
    return file.encodings;
  }

  /**
   * The bytes of a streamed file from `start` to `end` inclusive (the whole file by default),
   * opened before the answer starts, so that a file gone from a published build (someone
   * deleted it by hand) is a 500 problem rather than a response cut off after its headers.
   */
  async openStream(file: StoredFile, range?: { start: number; end: number }): Promise<Readable> {
    const handle = await open(join(this.root, file.path));
    return handle.createReadStream({ ...range, highWaterMark: STREAM_CHUNK_BYTES });
  }

  /**
   * A streamed file's descriptor, opened at once (as a small file is read, synchronously), for
   * server/pump-file.ts; null when it cannot be opened, for the app's answer to say why.
   */
  openSync(file: StoredFile): number | null {
    try {
      return openSync(join(this.root, file.path), "r");
    } catch {
      return null;
    }
  }

  /** Bytes held in memory now: small files with their entries' cost, and large files. */
  get heldBytes(): number {
    return this.held.calculatedSize + (this.heldLarge?.calculatedSize ?? 0);
  }
}

/** The siblings that exist (a variant is kept only when smaller, so one may be missing), by coding. */
function listFound(encodings: readonly Encoding[], siblings: readonly (StoredFile | null)[]): Map<Encoding, StoredFile> {
  const found = new Map<Encoding, StoredFile>();
  encodings.forEach((encoding, i) => {
    const sibling = siblings[i];
    if (sibling) found.set(encoding, sibling);
  });
  return found;
}

/**
 * A file's bytes when it has at most `maxBytes`, else its size (it is to be streamed); null
 * when there is no file. Read synchronously, as nginx reads a file by default: one open, fstat,
 * read and close, where the promise API's round trips through the thread pool (five per file)
 * made a file met for the first time the slowest answer of the file routes.
 */
function readSmallFile(path: string, maxBytes: number): { bytes: Buffer } | { size: number } | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if (NOT_A_FILE.has((error as NodeJS.ErrnoException).code ?? "")) return null;
    throw error;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return null;
    if (info.size > maxBytes) return { size: info.size };
    return { bytes: readAt(fd, 0, info.size) };
  } finally {
    closeSync(fd);
  }
}

function makeStoredFile(path: string, size: number, etag: string, bytes: Buffer | null): StoredFile {
  return { path, size, etag, bytes, ownHeaders: [["content-length", String(size)], ["etag", etag]] };
}

function formatEtag(hash: ReturnType<typeof createHash>): string {
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}

/**
 * A large file's ETag, read a slice at a time on the thread pool and each slice hashed as it
 * lands: into `into` (the file's bytes, to hold) or through one scratch slice (constant memory).
 */
async function readAndHash(path: string, full: string, size: number, into: Buffer | null): Promise<string> {
  const hash = createHash("sha256");
  const buffer = into ?? Buffer.allocUnsafe(Math.min(STREAM_CHUNK_BYTES, size));
  const handle = await open(full);
  try {
    for (let at = 0; at < size; ) {
      const place = into ? at : 0;
      const { bytesRead } = await handle.read(buffer, place, Math.min(STREAM_CHUNK_BYTES, size - at), at);
      if (bytesRead === 0) throw new Error(`${path} ended at ${at} of its ${size} bytes: it changed on disk`);
      hash.update(buffer.subarray(place, place + bytesRead));
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return formatEtag(hash);
}
