// @ts-check
"use strict";
// An incremental build does not write a new tree: it brings an older build folder (the "base",
// normally the build before the current one) up to date in place, so that what it costs follows
// what changed, not the size of the build (docs/incremental-builds.md). For each file the build
// makes, the writer thread asks this module what the base folder already holds:
//
// - the same bytes at the same path (by SHA-256, from the base's manifest): nothing to do, and
//   its precompressed variants are right too (they are a function of the bytes);
// - the same bytes in the current build: a hard link to the current build's file (and variants);
// - otherwise the file is written (and compressed) anew.
//
// A path is never written in place: a file of the base may be a hard link shared with another
// build folder, so it is unlinked first and the new bytes get a new inode. What the base held that
// the new build does not is deleted at the end. Both manifests are held as one index of paths to
// slots (PathIndex: the paths' bytes end to end and a hash table of slots), their sizes and hashes
// in typed arrays: about 150 bytes a path, none of it a string or an object.
const { closeSync, linkSync, mkdirSync, openSync, readSync, renameSync, rmdirSync, statSync, unlinkSync } = require("node:fs");
const { FNV_PRIME, FNV_SEED, fnv1a, fnv1aBytes } = require("../fnv.cjs");

const HASH_BYTES = 32;
/** A manifest is read this much at a time. */
const READ_BYTES = 1 << 20;
/** A manifest line's least length, about: `{"path":"…","size":N,"sha256":"<64>"},` with a short path. */
const MIN_LINE_BYTES = 100;
const PATH_START = '{"path":"';
const SIZE_START = '","size":';
const HASH_START = ',"sha256":"';

/**
 * Every entry of a build folder's manifest (written by file-sink.cjs, one file a line), with
 * `visit(bytes, pathFrom, pathTo, size, digest, pathHash)` for each: the path is bytes[pathFrom, pathTo)
 * (`pathHash` its fnv1aBytes, taken as the line is read),
 * `digest` its SHA-256 (32 bytes, valid until the next call). Paths are checked ASCII words
 * (output.ts), so no line needs JSON parsing, and nothing is made a string: at a million
 * usernames the two manifests an incremental build reads are 3.2 M lines, and making each line's
 * path and hash strings (and checking the hash with a pattern) was most of the time it took.
 * Read a mebibyte at a time: the whole manifests of two builds (350 MB at a million usernames)
 * stayed resident in the writer thread long after their paths were indexed.
 * @param {string} file
 * @param {ManifestVisit} visit
 */
function readManifestFile(file, visit) {
  const fd = openSync(file, "r");
  try {
    const chunk = Buffer.allocUnsafe(READ_BYTES);
    /** @type {Buffer} */
    let rest = Buffer.alloc(0);
    let offset = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, READ_BYTES, null);
      if (read === 0) break;
      const text = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      const last = text.lastIndexOf(10);
      // Whole lines now; the line the chunk cut comes with the next one (copied: the chunk is reused).
      if (last >= 0) readManifestEntries(text.subarray(0, last + 1), visit, offset);
      rest = Buffer.from(text.subarray(last + 1));
      offset += last + 1;
    }
    if (rest.length > 0) readManifestEntries(rest, visit, offset);
  } finally {
    closeSync(fd);
  }
}

/** @typedef {(bytes: Buffer, pathFrom: number, pathTo: number, size: number, digest: Buffer, pathHash: number) => void} ManifestVisit */

const PATH_START_BYTES = Buffer.from(PATH_START);
const SIZE_START_BYTES = Buffer.from(SIZE_START);
const HASH_START_BYTES = Buffer.from(HASH_START);
/** A lowercase hex digit's value by its byte, -1 for any other byte. */
const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;

/** @param {number} at where the line starts in the file */
const unreadable = (at) => new Error(`unreadable manifest line at byte ${at}`);

/**
 * The entries of whole manifest lines (`offset`: where `text` starts in the file, for errors).
 * Each line is read byte by byte in one sweep (the path up to its closing quote, which a checked
 * path never holds; the fixed keys compared where they must be; the size's digits; the hash's
 * hex): a native search per key cost more than the sweep, three per line over 3.2 M lines.
 * @param {Buffer} text
 * @param {ManifestVisit} visit
 * @param {number} [offset]
 */
function readManifestEntries(text, visit, offset = 0) {
  const digest = Buffer.alloc(HASH_BYTES);
  for (let at = 0; at < text.length; ) {
    let end = text.indexOf(10, at);
    if (end < 0) end = text.length;
    // Lines that are not a file's (the manifest's first and last) are skipped.
    if (bytesAt(text, at, PATH_START_BYTES, end)) {
      const pathFrom = at + PATH_START_BYTES.length;
      let pathEnd = pathFrom;
      // fnv.cjs's FNV-1a, written out: the index of paths takes each path's hash from here.
      let pathHash = FNV_SEED;
      for (let byte = /** @type {number} */ (text[pathEnd]); pathEnd < end && byte !== 34; byte = /** @type {number} */ (text[++pathEnd])) pathHash = Math.imul(pathHash ^ byte, FNV_PRIME);
      if (!bytesAt(text, pathEnd, SIZE_START_BYTES, end)) throw unreadable(offset + at);
      // The size: decimal digits only, as JSON.stringify writes a whole number.
      const sizeFrom = pathEnd + SIZE_START_BYTES.length;
      let size = 0;
      let hashAt = sizeFrom;
      for (; hashAt < end; hashAt++) {
        const digit = /** @type {number} */ (text[hashAt]) - 48;
        if (digit < 0 || digit > 9) break;
        size = size * 10 + digit;
      }
      if (hashAt === sizeFrom || !bytesAt(text, hashAt, HASH_START_BYTES, end)) throw unreadable(offset + at);
      // The SHA-256: 64 lowercase hex digits, then the closing quote.
      const hex = hashAt + HASH_START_BYTES.length;
      if (hex + 2 * HASH_BYTES >= end || text[hex + 2 * HASH_BYTES] !== 34) throw unreadable(offset + at);
      for (let i = 0; i < HASH_BYTES; i++) {
        const high = /** @type {number} */ (HEX_VALUE[/** @type {number} */ (text[hex + 2 * i])]);
        const low = /** @type {number} */ (HEX_VALUE[/** @type {number} */ (text[hex + 2 * i + 1])]);
        if ((high | low) < 0) throw unreadable(offset + at);
        digest[i] = (high << 4) | low;
      }
      visit(text, pathFrom, pathEnd, size, digest, pathHash >>> 0);
    }
    at = end + 1;
  }
}

/**
 * Whether `text` holds `bytes` at `at`, before `end`.
 * @param {Buffer} text @param {number} at @param {Buffer} bytes @param {number} end
 */
function bytesAt(text, at, bytes, end) {
  if (at + bytes.length > end) return false;
  for (let i = 0; i < bytes.length; i++) if (text[at + i] !== bytes[i]) return false;
  return true;
}

/**
 * Paths to slots (0, 1, 2, … in the order paths were first seen), held as bytes: the paths end to
 * end in one buffer and an open-addressing table of slots by FNV-1a hash (fnv.cjs), rather than a Map of
 * path strings: at 100 000 usernames the writer's whole index of two manifests took 30 MB of RSS
 * this way and 66 MB with the Map. Paths are checked ASCII words (output.ts), one byte a
 * character; the manifest's are read as Latin-1, so a path compares the same either way.
 */
class PathIndex {
  /** @param {number} capacity paths foreseen (it grows past them) */
  constructor(capacity) {
    this.size = 0;
    /** Path `slot` is bytes[starts[slot], starts[slot + 1]). */
    this.starts = new Uint32Array(capacity + 1);
    this.bytes = Buffer.allocUnsafe(Math.max(1024, capacity * 48));
    /** slot + 1 at each path's place; 0: free. At most half full. */
    this.table = new Int32Array(tableSize(capacity));
  }

  /** The slot of `path`, or -1. @param {string} path */
  get(path) {
    const mask = this.table.length - 1;
    for (let at = fnv1a(path) & mask; ; at = (at + 1) & mask) {
      const entry = /** @type {number} */ (this.table[at]);
      if (entry === 0) return -1;
      if (this.holds(entry - 1, path)) return entry - 1;
    }
  }

  /** The slot of `path`, given the next one if it has none. @param {string} path */
  slotOf(path) {
    const mask = this.table.length - 1;
    let at = fnv1a(path) & mask;
    for (; ; at = (at + 1) & mask) {
      const entry = /** @type {number} */ (this.table[at]);
      if (entry === 0) break;
      if (this.holds(entry - 1, path)) return entry - 1;
    }
    return this.add(at, path.length, (into, start) => into.write(path, start, "latin1"));
  }

  /**
   * slotOf for the path bytes[from, to) (Latin-1, as a manifest's ASCII paths are), without making
   * a string of it; `hash`, its fnv1aBytes, when the caller has it already (readManifestEntries).
   * @param {Uint8Array} bytes @param {number} from @param {number} to @param {number} [hash]
   */
  slotOfBytes(bytes, from, to, hash = fnv1aBytes(bytes, from, to)) {
    const mask = this.table.length - 1;
    const length = to - from;
    const own = this.bytes;
    let at = hash & mask;
    for (; ; at = (at + 1) & mask) {
      const entry = /** @type {number} */ (this.table[at]);
      if (entry === 0) break;
      const start = /** @type {number} */ (this.starts[entry - 1]);
      if (/** @type {number} */ (this.starts[entry]) - start !== length) continue;
      // Compared here, byte by byte: paths are short, and a native compare's call cost more.
      let i = 0;
      while (i < length && own[start + i] === bytes[from + i]) i++;
      if (i === length) return entry - 1;
    }
    return this.add(at, length, (into, start) => into.set(bytes.subarray(from, to), start));
  }

  /**
   * A new slot for a path of `length` bytes at the free place `at` of the table; `put(bytes, start)` writes the path.
   * @param {number} at @param {number} length @param {(into: Buffer, start: number) => void} put
   */
  add(at, length, put) {
    const slot = this.size++;
    if (slot + 1 >= this.starts.length) this.starts = growArray(this.starts, Math.ceil(this.starts.length * 1.5) + 1);
    const start = /** @type {number} */ (this.starts[slot]);
    if (start + length > this.bytes.length) {
      const bytes = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, start + length));
      this.bytes.copy(bytes, 0, 0, start);
      this.bytes = bytes;
    }
    put(this.bytes, start);
    this.starts[slot + 1] = start + length;
    this.table[at] = slot + 1;
    if (this.size * 2 > this.table.length) this.rehash();
    return slot;
  }

  /** The path of `slot`. @param {number} slot */
  pathAt(slot) {
    return this.bytes.toString("latin1", this.starts[slot], this.starts[slot + 1]);
  }

  /** @param {number} slot @param {string} path */
  holds(slot, path) {
    const start = /** @type {number} */ (this.starts[slot]);
    if (/** @type {number} */ (this.starts[slot + 1]) - start !== path.length) return false;
    const bytes = this.bytes;
    for (let i = 0; i < path.length; i++) if (bytes[start + i] !== path.charCodeAt(i)) return false;
    return true;
  }

  rehash() {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let slot = 0; slot < this.size; slot++) {
      let at = fnv1a(this.pathAt(slot)) & mask;
      while (table[at] !== 0) at = (at + 1) & mask;
      table[at] = slot + 1;
    }
    this.table = table;
  }
}

/** A power of two at least twice `count`. @param {number} count */
function tableSize(count) {
  let size = 1024;
  while (size < count * 2) size *= 2;
  return size;
}

/** @param {Uint32Array} array @param {number} size */
function growArray(array, size) {
  const grown = new Uint32Array(size);
  grown.set(array);
  return grown;
}

/** One side's sizes and hashes (the base's or the current build's), by slot. */
class Side {
  /** @param {number} capacity */
  constructor(capacity) {
    this.sizes = new Float64Array(capacity).fill(-1);
    this.hashes = Buffer.alloc(capacity * HASH_BYTES);
  }

  /** Room for `slot` (filling only): the arrays grow when the manifests list more paths than foreseen. @param {number} slot */
  ensure(slot) {
    if (slot < this.sizes.length) return;
    let capacity = Math.ceil(this.sizes.length * 1.25);
    while (capacity <= slot) capacity = Math.ceil(capacity * 1.25) + 1;
    const sizes = new Float64Array(capacity).fill(-1);
    sizes.set(this.sizes);
    const hashes = Buffer.alloc(capacity * HASH_BYTES);
    this.hashes.copy(hashes);
    this.sizes = sizes;
    this.hashes = hashes;
  }

  /** Whether this side's manifest lists the slot's path (slots past the arrays are paths it does not). @param {number} slot */
  has(slot) {
    return slot < this.sizes.length && this.sizes[slot] !== -1;
  }

  /** @param {number} slot @param {Uint8Array} hash */
  matches(slot, hash) {
    return this.has(slot) && this.hashes.compare(hash, 0, HASH_BYTES, slot * HASH_BYTES, (slot + 1) * HASH_BYTES) === 0;
  }

  /** @param {number} slot */
  hashHex(slot) {
    return this.hashes.toString("hex", slot * HASH_BYTES, (slot + 1) * HASH_BYTES);
  }
}

class TreeReuse {
  /**
   * @param {{ root: string; baseManifest: string | null; current: string | null; watch: Record<string, string>; rewrite?: string }} options
   *   `root`: the folder being brought up to date; `baseManifest`: the file of its manifest (null when it starts empty);
   *   `current`: the published build folder whose files may be linked; `watch`: prefixes whose changes are counted by name;
   *   `rewrite`: the prefix whose files written anew are counted in `rewritten` (the build's budget, build.ts)
   */
  constructor({ root, baseManifest, current, watch, rewrite }) {
    this.root = root;
    this.rewrite = rewrite ?? null;
    /** Files under `rewrite` written anew so far (not kept, not linked; variants not counted). */
    this.rewritten = 0;
    this.current = current;
    const currentManifest = current === null ? null : `${current}/manifest.json`;
    // The two manifests list mostly the same paths: room for the longer's lines, counted from its
    // size by the shortest line there can be (so rather more), grown if their union needs more.
    const lines = (/** @type {string | null} */ file) => (file === null ? 0 : Math.ceil(statSync(file).size / MIN_LINE_BYTES));
    const capacity = Math.max(lines(baseManifest), lines(currentManifest)) + 64;
    this.paths = new PathIndex(capacity);
    this.base = new Side(capacity);
    this.now = new Side(capacity);
    /** 1 once the new build lists the slot's path. */
    this.seen = new Uint8Array(capacity);
    this.watch = Object.entries(watch);
    /** Per watched name: files that differ from the current build's (new, changed or gone). */
    /** @type {Record<string, number>} */
    this.changed = Object.fromEntries(this.watch.map(([name]) => [name, 0]));
    this.stats = { written: 0, linked: 0, kept: 0, deleted: 0 };
    /** Folders known to exist in `root` (a link or a rename needs its folder). */
    /** @type {Set<string>} */
    this.dirs = new Set();
    if (baseManifest !== null) this.fill(this.base, baseManifest);
    if (currentManifest !== null) this.fill(this.now, currentManifest);
  }

  /** @param {Side} side @param {string} file */
  fill(side, file) {
    readManifestFile(file, (bytes, from, to, size, digest, pathHash) => {
      const slot = this.slotOfBytes(bytes, from, to, pathHash);
      side.ensure(slot);
      side.sizes[slot] = size;
      digest.copy(side.hashes, slot * HASH_BYTES);
    });
  }

  /** @param {string} path */
  slotOf(path) {
    return this.roomFor(this.paths.slotOf(path));
  }

  /** @param {Uint8Array} bytes @param {number} from @param {number} to @param {number} hash its fnv1aBytes */
  slotOfBytes(bytes, from, to, hash) {
    return this.roomFor(this.paths.slotOfBytes(bytes, from, to, hash));
  }

  /** `slot`, once `seen` has room for it. @param {number} slot */
  roomFor(slot) {
    if (slot >= this.seen.length) {
      // A path new to both manifests, past the room made for them.
      const seen = new Uint8Array(this.seen.length * 2);
      seen.set(this.seen);
      this.seen = seen;
    }
    return slot;
  }

  /**
   * Marks `path` as part of the new build (counted when its bytes differ from the current
   * build's); true when the base already holds these bytes there.
   * @param {string} path @param {Uint8Array} hash
   */
  arrive(path, hash) {
    const slot = this.slotOf(path);
    this.seen[slot] = 1;
    if (!this.now.matches(slot, hash)) this.count(path);
    return this.base.matches(slot, hash);
  }

  /** Whether the current build holds these bytes at `path`. @param {string} path @param {Uint8Array} hash */
  inCurrent(path, hash) {
    const slot = this.paths.get(path);
    return this.current !== null && slot !== -1 && this.now.matches(slot, hash);
  }

  /**
   * What to do with a file of the new build whose bytes hash to `hash`: "kept" (the base holds
   * it), "linked" (linked from the current build here), or "write" (the caller writes it, having
   * first cleared the base's older file at the name if it has one: `inBase`). Marks the path as
   * part of the new build.
   * @param {string} path @param {Uint8Array} hash
   * @returns {"kept" | "linked" | "write"}
   */
  place(path, hash) {
    if (this.arrive(path, hash)) {
      this.stats.kept++;
      return "kept";
    }
    if (this.inCurrent(path, hash)) {
      this.link(`${this.current}/${path}`, path);
      this.stats.linked++;
      return "linked";
    }
    this.stats.written++;
    if (this.rewrite !== null && path.startsWith(this.rewrite)) this.rewritten++;
    return "write";
  }

  /**
   * A file of the new build known to have the current build's bytes at `path` without them
   * (output.ts UNCHANGED): placed as a file of those bytes would be, so kept or linked. Its size
   * and hash are the current manifest's. A path the current build does not have is a bug.
   * @param {string} path
   * @returns {{ how: "kept" | "linked"; size: number; sha256: string }}
   */
  placeCurrent(path) {
    // `place` for bytes the current build has at the path, with one lookup (a million a day): not counted as changed.
    const slot = this.current === null ? -1 : this.paths.get(path);
    if (slot === -1 || !this.now.has(slot)) throw new Error(`said to be unchanged, but the current build has no ${path}`);
    this.seen[slot] = 1;
    const at = slot * HASH_BYTES;
    /** @type {"kept" | "linked"} */
    let how = "kept";
    if (this.base.has(slot) && this.base.hashes.compare(this.now.hashes, at, at + HASH_BYTES, at, at + HASH_BYTES) === 0) this.stats.kept++;
    else {
      this.link(`${this.current}/${path}`, path);
      this.stats.linked++;
      how = "linked";
    }
    return { how, size: /** @type {number} */ (this.now.sizes[slot]), sha256: this.now.hashHex(slot) };
  }

  /**
   * A variant of a file that was kept or linked: it is in place too, from the same side.
   * Returns its size and hash for the manifest, or null when that side has no such variant (it
   * was no smaller than the file, variants.cjs).
   * @param {string} path @param {"kept" | "linked"} how
   * @returns {{ size: number; sha256: string } | null}
   */
  placeVariant(path, how) {
    // A path in neither manifest gets no slot: an unchanged file's variants are looked for whether it has them or not (placeCurrent).
    const slot = this.paths.get(path);
    const side = how === "kept" ? this.base : this.now;
    if (slot === -1 || !side.has(slot)) return null;
    this.seen[slot] = 1;
    if (how === "linked") {
      this.link(`${this.current}/${path}`, path);
      this.stats.linked++;
    } else this.stats.kept++;
    return { size: /** @type {number} */ (side.sizes[slot]), sha256: side.hashHex(slot) };
  }

  /**
   * Unlinks the base's file at `path`, if it has one (`held`, when the caller knows already: `inBase`), before something new takes the name.
   * @param {string} path @param {boolean} [held]
   */
  clear(path, held = this.inBase(path)) {
    if (held) unlinkIfThere(`${this.root}/${path}`);
  }

  /** Whether the base holds a file at `path` (which a file written there must first be cleared of). @param {string} path */
  inBase(path) {
    const slot = this.paths.get(path);
    return slot !== -1 && this.base.has(slot);
  }

  /** A variant the caller wrote (after `clear`) of a file it wrote. @param {string} path */
  wroteVariant(path) {
    this.seen[this.slotOf(path)] = 1;
    this.stats.written++;
  }

  /**
   * A file the main thread wrote at `tmp` (a large one, written as it was made): the base's
   * file stays if it has the same bytes, else the new one takes its name.
   * @param {string} path @param {string} tmp @param {Uint8Array} hash
   */
  placeWritten(path, tmp, hash) {
    if (this.arrive(path, hash)) {
      unlinkIfThere(tmp);
      this.stats.kept++;
    } else if (this.inCurrent(path, hash)) {
      // Written for nothing, but a link keeps one copy of the bytes on disk, not two.
      unlinkIfThere(tmp);
      this.link(`${this.current}/${path}`, path);
      this.stats.linked++;
    } else {
      this.makeDir(path);
      renameSync(tmp, `${this.root}/${path}`);
      this.stats.written++;
    }
  }

  /**
   * A file this thread makes (`write` writes it at `tmp`) only if the base does not hold its bytes
   * at `path` already nor the current build at all: else kept, or linked.
   * @param {string} path @param {Uint8Array} hash @param {string} tmp @param {(target: string) => void} write
   */
  placeMade(path, hash, tmp, write) {
    if (this.arrive(path, hash)) this.stats.kept++;
    else if (this.inCurrent(path, hash)) {
      this.link(`${this.current}/${path}`, path);
      this.stats.linked++;
    } else {
      write(tmp);
      this.makeDir(path);
      renameSync(tmp, `${this.root}/${path}`);
      this.stats.written++;
    }
  }

  /**
   * A second name for a file already placed (the same bytes under two names, disk-writer.ts):
   * a hard link, unless the base holds it already.
   * @param {string} path @param {string} of @param {Uint8Array} hash
   */
  placeDuplicate(path, of, hash) {
    if (this.arrive(path, hash)) {
      this.stats.kept++;
      return;
    }
    this.link(`${this.root}/${of}`, path);
    this.stats.linked++;
  }

  /** Gives `path` the file at `from` (another name of the same inode), in place of the base's. @param {string} from @param {string} path */
  link(from, path) {
    this.clear(path);
    this.makeDir(path);
    linkSync(from, `${this.root}/${path}`);
  }

  /** Makes the folder of `path` if it may be missing. @param {string} path */
  makeDir(path) {
    const dir = path.slice(0, Math.max(0, path.lastIndexOf("/")));
    if (dir === "" || this.dirs.has(dir)) return;
    mkdirSync(`${this.root}/${dir}`, { recursive: true });
    this.dirs.add(dir);
  }

  /** @param {string} path */
  count(path) {
    for (const [name, prefix] of this.watch) {
      if (path.startsWith(prefix) && !path.endsWith(".gz") && !path.endsWith(".br")) this.changed[name] = (this.changed[name] ?? 0) + 1;
    }
  }

  /**
   * Deletes what the base held and the new build does not, and the folders left empty; counts
   * what the current build held and the new one does not.
   */
  sweep() {
    /** @type {Set<string>} */
    const dirs = new Set();
    for (let slot = 0; slot < this.paths.size; slot++) {
      if (this.seen[slot]) continue;
      const path = this.paths.pathAt(slot);
      if (this.now.has(slot)) this.count(path);
      if (!this.base.has(slot)) continue;
      unlinkIfThere(`${this.root}/${path}`);
      this.stats.deleted++;
      for (let dir = path.slice(0, Math.max(0, path.lastIndexOf("/"))); dir.length > 0; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/")))) dirs.add(dir);
    }
    // Deepest first; a folder that still holds something stays.
    for (const dir of [...dirs].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(`${this.root}/${dir}`);
      } catch {
        // Not empty (or already gone): it stays.
      }
    }
  }
}

/** @param {string} path */
function unlinkIfThere(path) {
  try {
    unlinkSync(path);
  } catch (error) {
    if (/** @type {{ code?: unknown }} */ (error)?.code !== "ENOENT") throw error;
  }
}

module.exports = { PathIndex, TreeReuse, readManifestEntries, readManifestFile, unlinkIfThere };
