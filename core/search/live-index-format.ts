/**
 * The live index on disk: a JSON string (companies, people, and a directory of sections) and one
 * binary buffer holding every typed array and joined text as raw little-endian bytes, each
 * section 8-byte aligned. Loading maps the sections back as typed-array views over the buffer
 * (a copy only if the buffer itself is misaligned): nothing is rebuilt, so a million usernames
 * load in milliseconds. No file I/O here: the build writes the two parts, the server reads them.
 *
 * JSON: { format: "live-search/1", littleEndian: true, companies, people,
 *         groups: { companies|people|spammers: { bits, sections: { name: [offset, byteLength] } } },
 *         spammerCounts: [offset, byteLength] }
 */
import type { GramPostings } from "./gram-postings.ts";
import type { LiveCompany, LiveIndex, LivePerson } from "./live-index.ts";
import type { SubstringIndex } from "./substring-index.ts";

const LIVE_INDEX_FORMAT = "live-search/1";

export interface SerializedLiveIndex {
  json: string;
  binary: Uint8Array;
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

export function serializeLiveIndex(index: LiveIndex): SerializedLiveIndex {
  if (!isLittleEndian) throw new Error("live index: big-endian hosts are not supported");
  const chunks: Uint8Array[] = [];
  let size = 0;
  const put = (bytes: Uint8Array): Span => {
    const padding = (8 - (size % 8)) % 8;
    if (padding) chunks.push(new Uint8Array(padding));
    size += padding;
    chunks.push(bytes);
    const span: Span = [size, bytes.byteLength];
    size += bytes.byteLength;
    return span;
  };
  const putArray = (array: Uint32Array) => put(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  const putGroup = (texts: SubstringIndex): GroupHeader => {
    const source: Record<ArrayName, Uint32Array> = { ...texts, offsets: texts.grams.offsets, postings: texts.grams.postings };
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
  const binary = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    binary.set(chunk, at);
    at += chunk.byteLength;
  }
  return { json: JSON.stringify(header), binary };
}

export function loadLiveIndex(serialized: SerializedLiveIndex): LiveIndex {
  const header = JSON.parse(serialized.json) as Header;
  if (header.format !== LIVE_INDEX_FORMAT) throw new Error(`live index: unknown format ${String(header.format)}`);
  if (!isLittleEndian) throw new Error("live index: big-endian hosts are not supported");
  // Typed-array views need 4-byte alignment; a buffer from a file read normally has it.
  const source = serialized.binary;
  const binary = source.byteOffset % 8 === 0 ? source : source.slice();
  const bytes = ([offset, length]: Span) => {
    if (offset + length > binary.byteLength) throw new Error("live index: binary part is truncated");
    return binary.subarray(offset, offset + length);
  };
  const array = (span: Span) => {
    const view = bytes(span);
    return new Uint32Array(view.buffer, view.byteOffset, view.byteLength / 4);
  };
  const decoder = new TextDecoder();
  const group = (g: GroupHeader): SubstringIndex => {
    const grams: GramPostings = { bits: g.bits, offsets: array(g.arrays.offsets), postings: array(g.arrays.postings) };
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
    companyTexts: group(header.groups.companies),
    personTexts: group(header.groups.people),
    spammerTexts: group(header.groups.spammers),
    spammerCounts: array(header.spammerCounts),
  };
}
