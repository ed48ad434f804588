// @ts-check
"use strict";
// A rowid table's rows read straight from the snapshot file's pages (sqlite.org/fileformat.html
// §1.6 and §2.3: the b-tree of a rowid table), in rowid order, each row as the bytes its cell
// holds: the payload's size and the rowid as varints, then the record (its values, each with its
// type). The digests of the report ranges hash these bytes (range-digest.cjs): a row's record is
// what SQLite gives back for it, given the table's declaration, so two rows with the same bytes
// under the same CREATE TABLE hold the same values, however their pages are laid out. Reading
// them this way takes a third of the time of SQLite building each row's text.
//
// Anything the reader does not expect (a page of another kind, a cell outside its page, rowids
// out of order, a rowid past 2^53, an overflow chain that does not add up) throws
// PagesUnreadable, and the caller reads the rows through SQLite instead, which reports a
// damaged file in its own words. Plain CommonJS: the digest worker runs it (build/threads.ts).
const { closeSync, fstatSync, openSync, readSync } = require("node:fs");

class PagesUnreadable extends Error {}

const MAGIC = "SQLite format 3\0";
/** Interior and leaf pages of a table b-tree. */
const INTERIOR = 0x05;
const LEAF = 0x0d;
/** Bytes of leaf pages read at once when they come one after the other (a VACUUMed file's do), at most. */
const MAX_WINDOW_BYTES = 1 << 20;
/** And when they do not: a few, so that a scattered file is not read a megabyte a page. */
const MIN_WINDOW_PAGES = 4;
/** Deeper than any b-tree of 2^64 rows: a loop in a damaged file ends here. */
const MAX_DEPTH = 40;

/**
 * @typedef {(bytes: Buffer, start: number, end: number, rowid: number) => void} VisitRow
 * A row's bytes are `bytes[start, end)`, valid until the visitor returns.
 */

class TablePages {
  /** @param {string} path */
  constructor(path) {
    this.fd = openSync(path, "r");
    try {
      const header = Buffer.alloc(100);
      if (readSync(this.fd, header, 0, 100, 0) !== 100 || header.toString("latin1", 0, 16) !== MAGIC) throw new PagesUnreadable("not an SQLite file");
      const raw = header.readUInt16BE(16);
      this.pageSize = raw === 1 ? 65_536 : raw;
      // The usable size of a page: less the bytes each page reserves at its end (§1.3.4), at least 480.
      this.usable = this.pageSize - header.readUInt8(20);
      if (this.pageSize < 512 || (this.pageSize & (this.pageSize - 1)) !== 0 || this.usable < 480) throw new PagesUnreadable("page size");
      this.header = header;
      this.size = fstatSync(this.fd).size;
      this.pageCount = Math.floor(this.size / this.pageSize);
      // The largest payload a leaf cell holds whole, and the part of a larger one kept on the page (§1.6).
      this.maxLocal = this.usable - 35;
      this.minLocal = Math.floor(((this.usable - 12) * 32) / 255) - 23;
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
    this.maxWindowPages = Math.max(MAX_WINDOW_BYTES / this.pageSize, MIN_WINDOW_PAGES);
    this.window = Buffer.allocUnsafeSlow(this.pageSize * this.maxWindowPages);
    this.windowFirst = 0;
    this.windowPages = 0;
    this.scratch = Buffer.allocUnsafeSlow(this.pageSize);
    /** Where visit() gets an overflowing row's bytes whole. */
    this.assembled = Buffer.allocUnsafeSlow(this.pageSize * 2);
    this.leafDepth = -1;
  }

  /**
   * Visits the rows of the table rooted at `root` whose rowid is in [from, to) (safe integers),
   * in rowid order; then checks that the file did not change meanwhile.
   * @param {number} root @param {number} from @param {number} to @param {VisitRow} visit
   */
  forEachRow(root, from, to, visit) {
    this.leafDepth = -1;
    this.walk(root, 0, -1, Number.MAX_SAFE_INTEGER, from, to, visit);
    const now = Buffer.alloc(100);
    readSync(this.fd, now, 0, 100, 0);
    if (!now.equals(this.header) || fstatSync(this.fd).size !== this.size) throw new Error("the snapshot file changed while it was read");
  }

  close() {
    closeSync(this.fd);
  }

  /**
   * The subtree at `page` holds the rowids in (low, high]: its keys are checked to be.
   * @param {number} page @param {number} depth @param {number} low @param {number} high
   * @param {number} from @param {number} to @param {VisitRow} visit
   */
  walk(page, depth, low, high, from, to, visit) {
    if (depth > MAX_DEPTH) throw new PagesUnreadable("too deep");
    if (this.leafDepth < 0 || depth < this.leafDepth) {
      const bytes = this.readPage(page, Buffer.allocUnsafe(this.pageSize));
      if (bytes[0] === INTERIOR) return this.walkInterior(bytes, depth, low, high, from, to, visit);
      if (bytes[0] !== LEAF || this.leafDepth >= 0) throw new PagesUnreadable(`page ${page} is not a table b-tree page at its depth`);
      this.leafDepth = depth;
    } else if (depth > this.leafDepth) throw new PagesUnreadable("leaves at different depths");
    this.walkLeaf(page, low, high, from, to, visit);
  }

  /**
   * @param {Buffer} bytes @param {number} depth @param {number} low @param {number} high
   * @param {number} from @param {number} to @param {VisitRow} visit
   */
  walkInterior(bytes, depth, low, high, from, to, visit) {
    const cells = bytes.readUInt16BE(3);
    let previous = low;
    for (let i = 0; i < cells; i++) {
      const at = this.cellAt(bytes, 0, 12, i, 5);
      const child = bytes.readUInt32BE(at);
      const key = readVarint(bytes, at + 4, this.usable);
      if (key < 0 || key <= previous || key > high) throw new PagesUnreadable("an interior key out of order or unreadable");
      // The child holds the rowids in (previous, key]: none at or past `to` once previous is.
      if (previous >= to - 1) return;
      if (key >= from) this.walk(child, depth + 1, previous, key, from, to, visit);
      previous = key;
    }
    if (previous < to - 1) this.walk(bytes.readUInt32BE(8), depth + 1, previous, high, from, to, visit);
  }

  /**
   * @param {number} page @param {number} low @param {number} high
   * @param {number} from @param {number} to @param {VisitRow} visit
   */
  walkLeaf(page, low, high, from, to, visit) {
    const base = this.windowOffset(page);
    const bytes = this.window;
    if (bytes[base] !== LEAF) throw new PagesUnreadable(`page ${page} is not a leaf of the table`);
    const cells = bytes.readUInt16BE(base + 3);
    const end = base + this.usable;
    let previous = low;
    for (let i = 0; i < cells; i++) {
      const start = this.cellAt(bytes, base, 8, i, 2);
      const size = readVarint(bytes, start, end);
      const rowid = size < 0 ? -1 : readVarint(bytes, varint.end, end);
      const payload = varint.end;
      if (rowid < 0) throw new PagesUnreadable("a cell's size or rowid unreadable (or past 2^53)");
      if (rowid <= previous || rowid > high) throw new PagesUnreadable("rowids out of order");
      previous = rowid;
      if (rowid < from) continue;
      if (rowid >= to) return;
      if (size <= this.maxLocal) {
        if (payload + size > end) throw new PagesUnreadable("a cell runs past its page");
        visit(bytes, start, payload + size, rowid);
      } else {
        // Assembled first: assemble() may give `assembled` a larger buffer.
        const length = this.assemble(bytes, start, payload, size, end);
        visit(this.assembled, 0, length, rowid);
      }
    }
  }

  /**
   * Copies an overflowing row's cell to `assembled`: its prefix and local part, then the rest of
   * its payload from its chain of overflow pages (§1.6); returns its length there.
   * @param {Buffer} bytes @param {number} start @param {number} payload @param {number} size @param {number} end
   */
  assemble(bytes, start, payload, size, end) {
    const surplus = this.minLocal + ((size - this.minLocal) % (this.usable - 4));
    const local = surplus <= this.maxLocal ? surplus : this.minLocal;
    if (payload + local + 4 > end) throw new PagesUnreadable("a cell runs past its page");
    const total = payload - start + size;
    if (total > 1_100_000_000) throw new PagesUnreadable("a row larger than SQLite's limit");
    if (this.assembled.length < total) this.assembled = Buffer.allocUnsafeSlow(total);
    let at = bytes.copy(this.assembled, 0, start, payload + local);
    let next = bytes.readUInt32BE(payload + local);
    let left = size - local;
    while (left > 0) {
      if (next < 2 || next > this.pageCount) throw new PagesUnreadable("an overflow page out of the file");
      const page = this.readPage(next, this.scratch);
      const part = Math.min(left, this.usable - 4);
      at += page.copy(this.assembled, at, 4, 4 + part);
      left -= part;
      next = page.readUInt32BE(0);
    }
    if (next !== 0) throw new PagesUnreadable("an overflow chain longer than its payload");
    return at;
  }

  /**
   * The offset of cell `i` of the page at `base` whose header is `headerSize` bytes, checked to
   * leave room for `least` bytes on the page.
   * @param {Buffer} bytes @param {number} base @param {number} headerSize @param {number} i @param {number} least
   */
  cellAt(bytes, base, headerSize, i, least) {
    const pointer = headerSize + 2 * i;
    const offset = pointer + 2 <= this.pageSize ? bytes.readUInt16BE(base + pointer) : 0;
    if (offset < headerSize || offset + least > this.usable) throw new PagesUnreadable("a cell outside its page");
    return base + offset;
  }

  /** @param {number} page @param {Buffer} into */
  readPage(page, into) {
    if (page < 2 || page > this.pageCount) throw new PagesUnreadable(`page ${page} out of the file`);
    if (readSync(this.fd, into, 0, this.pageSize, (page - 1) * this.pageSize) !== this.pageSize) throw new PagesUnreadable("a short read");
    return into;
  }

  /**
   * Where leaf `page` is in the window, which is read again around it when it is not there:
   * further ahead each time the leaves come one after the other, a few pages when they do not.
   * @param {number} page
   */
  windowOffset(page) {
    if (page < 2 || page > this.pageCount) throw new PagesUnreadable(`page ${page} out of the file`);
    if (page < this.windowFirst || page >= this.windowFirst + this.windowPages) {
      const end = this.windowFirst + this.windowPages;
      // An interior page or two among the leaves still counts as in order.
      const inOrder = this.windowPages > 0 && page >= end && page <= end + 2;
      const want = inOrder ? Math.min(this.windowPages * 2, this.maxWindowPages) : MIN_WINDOW_PAGES;
      const pages = Math.min(want, this.pageCount - page + 1);
      const read = readSync(this.fd, this.window, 0, pages * this.pageSize, (page - 1) * this.pageSize);
      if (read !== pages * this.pageSize) throw new PagesUnreadable("a short read");
      this.windowFirst = page;
      this.windowPages = pages;
    }
    return (page - this.windowFirst) * this.pageSize;
  }
}

/** Where the last readVarint stopped. */
const varint = { end: 0 };

/**
 * A varint (§2.1) at `bytes[at]`, as a Number, and where it stops in `varint.end`; -1 when it runs
 * to `end` or past 2^53 (a negative rowid among them), which only a damaged file holds here.
 * @param {Uint8Array} bytes @param {number} at @param {number} end
 */
function readVarint(bytes, at, end) {
  let value = 0;
  for (let i = 0; i < 8 && at < end; i++) {
    const byte = /** @type {number} */ (bytes[at++]);
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) {
      if (value > Number.MAX_SAFE_INTEGER) return -1;
      varint.end = at;
      return value;
    }
  }
  return -1;
}

module.exports = { TablePages, PagesUnreadable, readVarint, varint };
