/**
 * The live index on disk: a JSON string (companies, people, and a directory of sections) and one
 * binary buffer holding every typed array and joined text as raw little-endian bytes, each
 * section 8-byte aligned. Loading maps the sections back as typed-array views over the buffer
 * (a copy only if the buffer itself is misaligned): nothing is rebuilt, so a million usernames
 * load in milliseconds. No file I/O here: the build writes the two parts, the server reads them.
 *
 * The server reads the binary part by sections (LiveIndexSource) and never reads the usernames'
 * postings whole: two thirds of the file at a million usernames, of which a search reads a few
 * lists (gram-postings.ts PostingReader). They stay in the page cache, not in the process.
 *
 * JSON: { format: "live-search/1", littleEndian: true, companies, people,
 *         groups: { companies|people|spammers: { bits, sections: { name: [offset, byteLength] } } },
 *         spammerCounts: [offset, byteLength] }
 */
import type { PostingReader, ReadableGramPostings } from "./gram-postings.ts";
import type { LiveCompany, LiveIndex, LivePerson } from "./live-index.ts";
import type { SubstringIndex } from "./substring-index.ts";

const LIVE_INDEX_FORMAT = "live-search/1";

export interface SerializedLiveIndex {
  json: string;
  binary: Uint8Array;
}

/** The binary part as the server has it: its size, and any span of it read on request. */
export interface LiveIndexSource {
  json: string;
  size: number;
  /** Bytes [offset, offset + length) of the binary part: a new buffer, or a view of bytes nobody writes to. */
  read(offset: number, length: number): Uint8Array;
}

type Span = [offset: number, byteLength: number];
type ArrayName = "textStarts" | "recordTexts" | "sortedTexts" | "offsets" | "postings";
const ARRAY_NAMES: readonly ArrayName[] = ["textStarts", "recordTexts", "sortedTexts", "offsets", "postings"];
const GROUPS = ["companies", "people", "spammers"] as const;

interface GroupHeader {
  bits: number;
  joined: Span;
  arrays: Record<ArrayName, Span>;
}

interface Header {
  format: typeof LIVE_INDEX_FORMAT;
  littleEndian: true;
  companies: LiveCompany[];
  people: LivePerson[];
  groups: Record<(typeof GROUPS)[number], GroupHeader>;
  spammerCounts: Span;
}

const isLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The binary part as the sections it is laid out from, in order (padding included), without
 * copying them into one buffer: at a million usernames that copy is as large as the file (about
 * 140 MB), and the build writes the sections one after the other instead (build/emitters/search.ts).
 * The sections are views of the index's own arrays, valid while the index is.
 */
export interface LiveIndexSections {
  json: string;
  byteLength: number;
  sections: readonly Uint8Array[];
}

export function serializeLiveIndexSections(index: LiveIndex): LiveIndexSections {
  if (!isLittleEndian) throw new Error("live index: big-endian hosts are not supported");
  const sections: Uint8Array[] = [];
  let size = 0;
  const put = (bytes: Uint8Array): Span => {
    const padding = (8 - (size % 8)) % 8;
    if (padding) sections.push(new Uint8Array(padding));
    size += padding;
    sections.push(bytes);
    const span: Span = [size, bytes.byteLength];
    size += bytes.byteLength;
    return span;
  };
  const putArray = (array: Uint32Array) => put(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  const putGroup = (texts: SubstringIndex): GroupHeader => {
    const { postings } = texts.grams;
    if (!(postings instanceof Uint32Array)) throw new Error("live index: only an index built in memory is serialised");
    const source: Record<ArrayName, Uint32Array> = { ...texts, offsets: texts.grams.offsets, postings };
    const arrays = Object.fromEntries(ARRAY_NAMES.map((name) => [name, putArray(source[name])])) as Record<ArrayName, Span>;
    return { bits: texts.grams.bits, joined: put(new TextEncoder().encode(texts.joined)), arrays };
  };
  const header: Header = {
    format: LIVE_INDEX_FORMAT,
    littleEndian: true,
    companies: index.companies,
    people: index.people,
    groups: { companies: putGroup(index.companyTexts), people: putGroup(index.personTexts), spammers: putGroup(index.spammerTexts) },
    spammerCounts: putArray(index.spammerCounts),
  };
  return { json: JSON.stringify(header), byteLength: size, sections };
}

/**
 * The sections as a source the index loads from by spans, as the server's file is (the build's
 * examples). A span inside one section (each array of the index is one) is a view of it, not a
 * copy: copies of every array but the postings are about 120 MB at four million usernames, made
 * at the end of the build, when its memory is at its highest.
 */
export function toLiveIndexSource(serialized: LiveIndexSections): LiveIndexSource {
  return {
    json: serialized.json,
    size: serialized.byteLength,
    read(offset, length) {
      let start = 0;
      for (const section of serialized.sections) {
        if (offset >= start && offset + length <= start + section.byteLength) return section.subarray(offset - start, offset - start + length);
        start += section.byteLength;
      }
      const out = new Uint8Array(length);
      let at = 0;
      for (const section of serialized.sections) {
        const end = at + section.byteLength;
        if (end > offset && at < offset + length) {
          const from = Math.max(offset, at);
          const to = Math.min(offset + length, end);
          out.set(section.subarray(from - at, to - at), from - offset);
        }
        at = end;
      }
      return out;
    },
  };
}

/** The two parts with the binary one whole, in one buffer (tests, the benchmarks). */
export function serializeLiveIndex(index: LiveIndex): SerializedLiveIndex {
  const { json, byteLength, sections } = serializeLiveIndexSections(index);
  const binary = new Uint8Array(byteLength);
  let at = 0;
  for (const section of sections) {
    binary.set(section, at);
    at += section.byteLength;
  }
  return { json, binary };
}

/**
 * The index from its two parts: the binary part whole (the build, the tests), or a source read by
 * spans, from which the usernames' postings are read list by list as searches need them.
 */
export function loadLiveIndex(serialized: SerializedLiveIndex | LiveIndexSource): LiveIndex {
  const header = JSON.parse(serialized.json) as Header;
  if (header.format !== LIVE_INDEX_FORMAT) throw new Error(`live index: unknown format ${String(header.format)}`);
  if (!isLittleEndian) throw new Error("live index: big-endian hosts are not supported");
  const source = "binary" in serialized ? fromBuffer(serialized.binary) : serialized;
  const bytes = ([offset, length]: Span) => {
    if (offset + length > source.size) throw new Error("live index: binary part is truncated");
    const read = source.read(offset, length);
    // Typed-array views need 4-byte alignment; a buffer read normally has it.
    return read.byteOffset % 8 === 0 ? read : read.slice();
  };
  const array = (span: Span) => {
    const view = bytes(span);
    return new Uint32Array(view.buffer, view.byteOffset, view.byteLength / 4);
  };
  const decoder = new TextDecoder();
  const group = (g: GroupHeader, postings: "held" | "read"): SubstringIndex => {
    const grams: ReadableGramPostings = {
      bits: g.bits,
      offsets: array(g.arrays.offsets),
      postings: postings === "held" || "binary" in serialized ? array(g.arrays.postings) : createPostingReader(g.arrays.postings, bytes),
    };
    return {
      joined: decoder.decode(bytes(g.joined)),
      textStarts: array(g.arrays.textStarts),
      recordTexts: array(g.arrays.recordTexts),
      sortedTexts: array(g.arrays.sortedTexts),
      grams,
    };
  };
  return {
    companies: header.companies,
    people: header.people,
    companyTexts: group(header.groups.companies, "held"),
    personTexts: group(header.groups.people, "held"),
    spammerTexts: group(header.groups.spammers, "read"),
    spammerCounts: array(header.spammerCounts),
  };
}

/** A whole binary part as a source: spans are views of it, nothing is copied. */
function fromBuffer(binary: Uint8Array): Omit<LiveIndexSource, "json"> {
  return { size: binary.byteLength, read: (offset, length) => binary.subarray(offset, offset + length) };
}

/** The postings of `span`, read by posting ranges. */
function createPostingReader([offset, byteLength]: Span, bytes: (span: Span) => Uint8Array): PostingReader {
  return {
    read(start, count) {
      if (count <= 0) return new Uint32Array(0);
      if ((start + count) * 4 > byteLength) throw new Error("live index: a posting list reaches past its section");
      const view = bytes([offset + start * 4, count * 4]);
      return new Uint32Array(view.buffer, view.byteOffset, count);
    },
  };
}
