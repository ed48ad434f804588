import { describe, expect, it } from "vitest";
import { pickEncoding } from "../../core/http/accept-encoding.ts";
import { ENCODINGS } from "../../core/routes/variants.ts";
import { MAX_RANGES, formatContentRange, parseRange } from "../../core/http/range.ts";

describe("Range", () => {
  const size = 1000;

  it("reads a range, an open end and a suffix, cut to the end of the file", () => {
    expect(parseRange("bytes=0-99", size)).toEqual({ kind: "partial", ranges: [{ start: 0, end: 99 }] });
    expect(parseRange("bytes=900-", size)).toEqual({ kind: "partial", ranges: [{ start: 900, end: 999 }] });
    expect(parseRange("bytes=-100", size)).toEqual({ kind: "partial", ranges: [{ start: 900, end: 999 }] });
    expect(parseRange("bytes=-5000", size)).toEqual({ kind: "partial", ranges: [{ start: 0, end: 999 }] });
    expect(parseRange("bytes=990-5000", size)).toEqual({ kind: "partial", ranges: [{ start: 990, end: 999 }] });
    expect(parseRange("BYTES = 1-1", size)).toEqual({ kind: "partial", ranges: [{ start: 1, end: 1 }] });
  });

  it("merges overlapping and adjacent ranges and keeps the rest in file order", () => {
    expect(parseRange("bytes=500-599,0-9,10-19,550-650", size)).toEqual({
      kind: "partial",
      ranges: [
        { start: 0, end: 19 },
        { start: 500, end: 650 },
      ],
    });
  });

  it("is unsatisfiable only when every range starts past the end, or when there are too many", () => {
    expect(parseRange("bytes=1000-", size)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-0", size)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=2000-3000,0-0", size)).toEqual({ kind: "partial", ranges: [{ start: 0, end: 0 }] });
    expect(parseRange("bytes=0-0", 0)).toEqual({ kind: "unsatisfiable" });
    const many = Array.from({ length: MAX_RANGES + 1 }, (_, i) => `${i * 10}-${i * 10 + 1}`).join(",");
    expect(parseRange(`bytes=${many}`, size)).toEqual({ kind: "unsatisfiable" });
  });

  it("ignores what does not parse, and other units: the whole file", () => {
    for (const header of ["", "bytes", "bytes=", "bytes=abc", "bytes=5-1", "bytes=-", "items=0-1", "bytes=0-1;x", "bytes=1e3-", "bytes=99999999999999999999-"]) {
      expect(parseRange(header, size), header).toEqual({ kind: "whole" });
    }
    expect(parseRange(null, size)).toEqual({ kind: "whole" });
  });

  it("writes Content-Range for a part and for an unsatisfiable request", () => {
    expect(formatContentRange({ start: 0, end: 99 }, size)).toBe("bytes 0-99/1000");
    expect(formatContentRange(null, size)).toBe("bytes */1000");
  });
});

describe("Accept-Encoding", () => {
  const both = new Set(ENCODINGS);

  it("prefers brotli when the client weighs both alike, and follows the client's weights", () => {
    expect(pickEncoding("gzip, deflate, br", both)).toBe("br");
    expect(pickEncoding("gzip;q=1, br;q=0.5", both)).toBe("gzip");
    expect(pickEncoding("br;q=0.9, gzip;q=0.9", both)).toBe("br");
    expect(pickEncoding("*", both)).toBe("br");
    expect(pickEncoding("x-gzip", both)).toBe("gzip");
  });

  it("never sends a coding the client refused, did not name, or that the build did not write", () => {
    expect(pickEncoding("br;q=0, gzip", both)).toBe("gzip");
    expect(pickEncoding("*;q=0", both)).toBeNull();
    expect(pickEncoding("deflate, identity", both)).toBeNull();
    expect(pickEncoding("br", new Set(["gzip" as const]))).toBeNull();
    expect(pickEncoding("gzip;q=abc", both)).toBeNull();
    expect(pickEncoding("gzip", new Set())).toBeNull();
  });

  it("sends the file as it is to a client that sends no Accept-Encoding", () => {
    expect(pickEncoding(null, both)).toBeNull();
    expect(pickEncoding("", both)).toBeNull();
  });
});
