/**
 * Byte ranges (RFC 9110 §14): what a `Range` header asks of a representation of `size` bytes.
 * A broken download of a weekly dump resumes from where it stopped instead of starting over.
 *
 * Decisions, the same as nginx's on the same file so both hosts answer alike:
 * - a header that is not `bytes=…` or does not parse is ignored (the whole file, 200), as
 *   §14.2 allows — a client that sends garbage still gets its file;
 * - ranges past the end are cut to the end; a range that starts past it is unsatisfiable, and
 *   only when every range is does the answer become 416;
 * - overlapping or adjacent ranges are merged, and more than MAX_RANGES are refused as
 *   unsatisfiable rather than answered part by part (a many-range request is how one asks a
 *   server to do much work for few bytes; §15.5.17 allows it).
 */

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

export type RangeAnswer =
  | { kind: "whole" }
  | { kind: "partial"; ranges: ByteRange[] }
  | { kind: "unsatisfiable" };

/** More ranges than this in one request are answered 416. */
export const MAX_RANGES = 16;

const RANGE_SPEC = /^(\d*)-(\d*)$/;

export function parseRange(header: string | null | undefined, size: number): RangeAnswer {
  if (!header) return { kind: "whole" };
  const match = /^\s*bytes\s*=\s*(.+)$/i.exec(header);
  if (!match) return { kind: "whole" };
  const specs = match[1]!.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (specs.length === 0) return { kind: "whole" };
  if (specs.length > MAX_RANGES) return { kind: "unsatisfiable" };
  const ranges: ByteRange[] = [];
  for (const spec of specs) {
    const parts = RANGE_SPEC.exec(spec);
    if (!parts || (parts[1] === "" && parts[2] === "")) return { kind: "whole" };
    const range = toByteRange(parts[1]!, parts[2]!, size);
    if (range === "invalid") return { kind: "whole" };
    if (range) ranges.push(range);
  }
  if (ranges.length === 0) return { kind: "unsatisfiable" };
  return { kind: "partial", ranges: mergeRanges(ranges) };
}

/** One `first-last`, `first-` or `-suffix` spec as bytes of the file; null when it starts past the end. */
function toByteRange(first: string, last: string, size: number): ByteRange | null | "invalid" {
  if (first === "") {
    // A suffix: the last N bytes (all of them when N is larger than the file).
    const length = Number(last);
    if (!Number.isSafeInteger(length)) return "invalid";
    if (length === 0 || size === 0) return null;
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? Number.MAX_SAFE_INTEGER : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return "invalid";
  if (start >= size) return null;
  return { start, end: Math.min(end, size - 1) };
}

function mergeRanges(ranges: ByteRange[]): ByteRange[] {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const merged: ByteRange[] = [sorted[0]!];
  for (const range of sorted.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (range.start <= last.end + 1) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** `Content-Range` of one range of a file, or of an unsatisfiable request (`bytes *\/size`). */
export function formatContentRange(range: ByteRange | null, size: number): string {
  return range ? `bytes ${range.start}-${range.end}/${size}` : `bytes */${size}`;
}
