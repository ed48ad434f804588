/**
 * The spammer lists' order as one file (`api/spammers/ranking.bin`): every reported username in
 * DESIGN's order ("Orders": reports desc, last report desc, username), and each category's list
 * as positions in that order. The live server answers a page of a list beyond the top it holds
 * with the usernames read from here and their items from their check files; a static host
 * answers the first pages from their page files (build/emitters/spammers.ts). One file that
 * changes with the ranking, rather than a page file per page of every list, each of which one
 * more report shifts: what keeps a deploy of a changed build small (docs/operators.md "Deploy").
 *
 * Layout (little-endian): a u32 with the header's length, the header (JSON), then 8-byte aligned
 * sections: `names`, the usernames end to end (ASCII: the build writes valid usernames only);
 * `starts`, total + 1 u32 (username i is names[starts[i], starts[i + 1])); and per category its
 * members' positions in the whole order, ascending. No file I/O here: the build writes the
 * bytes, the server reads spans of them as pages are asked for (nothing is held).
 */
import { CATEGORIES, type Category } from "./categories.ts";

const RANKING_FORMAT = "spammer-ranking/1";

type Span = [offset: number, byteLength: number];

interface Header {
  format: typeof RANKING_FORMAT;
  total: number;
  names: Span;
  starts: Span;
  /** Per category: its members' positions, [offset, count]. */
  categories: Partial<Record<Category, Span>>;
}

/** What the build knows of each username, best first. */
export interface RankedUsername {
  username: string;
  /** Its categories as CATEGORIES indexes (the build's columnar table holds them so). */
  categories: ArrayLike<number>;
}

/** The file's bytes, from the usernames in order (one pass; memory: the sections themselves). */
export function serializeSpammerRanking(ranked: Iterable<RankedUsername>): Uint8Array {
  const encoder = new TextEncoder();
  // The names end to end, in one buffer that grows (a million usernames: no array each).
  let names = new Uint8Array(1 << 16);
  const starts: number[] = [0];
  const members = CATEGORIES.map((): number[] => []);
  let at = 0;
  for (const { username, categories } of ranked) {
    if (at + username.length * 3 > names.length) {
      const grown = new Uint8Array(Math.max(names.length * 2, at + username.length * 3));
      grown.set(names.subarray(0, at));
      names = grown;
    }
    at += encoder.encodeInto(username, names.subarray(at)).written;
    for (let i = 0; i < categories.length; i++) members[categories[i]!]!.push(starts.length - 1);
    starts.push(at);
  }
  const sections: Uint8Array[] = [];
  let size = 0;
  const put = (bytes: Uint8Array): Span => {
    const span: Span = [size, bytes.byteLength];
    sections.push(bytes);
    size += align(bytes.byteLength);
    return span;
  };
  const header: Header = { format: RANKING_FORMAT, total: starts.length - 1, names: put(names.subarray(0, at)), starts: put(toUint32Bytes(starts)), categories: {} };
  for (const [code, positions] of members.entries()) {
    if (positions.length > 0) header.categories[CATEGORIES[code]!] = [put(toUint32Bytes(positions))[0], positions.length];
  }
  const json = encoder.encode(JSON.stringify(header));
  const body = 4 + align(json.byteLength);
  const file = new Uint8Array(body + size);
  new DataView(file.buffer).setUint32(0, json.byteLength, true);
  file.set(json, 4);
  let cursor = body;
  for (const section of sections) {
    file.set(section, cursor);
    cursor += align(section.byteLength);
  }
  return file;
}

/** The file as the server has it: its size, and any span of it read on request. */
export interface RankingSource {
  size: number;
  /** Bytes [offset, offset + length) of the file, in a new buffer. */
  read(offset: number, length: number): Uint8Array;
}

export interface SpammerRanking {
  /** Usernames in the list (of the category, when one is given). */
  count(category?: Category): number;
  /** The usernames at positions [start, end) of the list, cut to its end. */
  usernames(category: Category | undefined, start: number, end: number): string[];
}

/** Reads the header; every other byte is read when a page asks for it. */
export function openSpammerRanking(source: RankingSource): SpammerRanking {
  const headerLength = readUint32s(source, 0, 1)[0]!;
  const body = 4 + align(headerLength);
  if (body > source.size) throw new Error("spammer ranking: the file is truncated");
  const header = JSON.parse(new TextDecoder().decode(source.read(4, headerLength))) as Header;
  if (header.format !== RANKING_FORMAT) throw new Error(`spammer ranking: unknown format ${String(header.format)}`);
  const end = ([offset, length]: Span) => body + offset + length;
  if (end(header.names) > source.size || end(header.starts) > source.size) throw new Error("spammer ranking: the file is truncated");
  const decoder = new TextDecoder();
  const nameBytes = (from: number, to: number) => decoder.decode(source.read(body + header.names[0] + from, to - from));
  const startsOf = (first: number, count: number) => readUint32s(source, body + header.starts[0] + first * 4, count);
  const count = (category?: Category) => (category === undefined ? header.total : (header.categories[category]?.[1] ?? 0));
  return {
    count,
    usernames(category, start, stop) {
      const last = Math.min(stop, count(category));
      if (start >= last) return [];
      if (category === undefined) {
        // One read of the starts, one of the names: a page of the whole list is contiguous.
        const starts = startsOf(start, last - start + 1);
        const text = nameBytes(starts[0]!, starts[starts.length - 1]!);
        return Array.from({ length: last - start }, (_, i) => text.slice(starts[i]! - starts[0]!, starts[i + 1]! - starts[0]!));
      }
      const [offset] = header.categories[category]!;
      const positions = readUint32s(source, body + offset + start * 4, last - start);
      return Array.from(positions, (position) => {
        const [from, to] = startsOf(position, 2);
        return nameBytes(from!, to!);
      });
    },
  };
}

function align(length: number): number {
  return (length + 7) & ~7;
}

/** Little-endian u32s, whatever the host's order. */
function toUint32Bytes(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i]!, true);
  return bytes;
}

/** `count` little-endian u32 at `offset`. */
function readUint32s(source: RankingSource, offset: number, count: number): Uint32Array {
  if (offset + count * 4 > source.size) throw new Error("spammer ranking: the file is truncated");
  const bytes = source.read(offset, count * 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint32Array.from({ length: count }, (_, i) => view.getUint32(i * 4, true));
}
