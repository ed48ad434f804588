/**
 * Precompressed variants (core/routes/variants.ts, build/writer/variants.cjs): a build writes a
 * `.gz` and a `.br` beside exactly the compressible files of 1 KiB to 1 MiB, each smaller than
 * its file and decoding to it (node:zlib's decoders), with pinned bytes, listed in the manifest.
 * That the same snapshot gives the same variants, on disk and in memory, is build.test.ts's.
 */
import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { buildInMemory } from "../../build/build.ts";
import { hashContent, MemoryWriter } from "../../build/writer/index.ts";
import { ENCODINGS, listVariantEncodings, MAX_VARIANT_SIZE, MIN_VARIANT_SIZE, parseVariantPath, VARIANT_SUFFIX } from "../../core/routes/variants.ts";
import { BASE_URL, withSnapshot, FIXTURE_SQL } from "../helpers/fixture.ts";

const { files } = withSnapshot("variants", FIXTURE_SQL, (db) => buildInMemory({ db, baseUrl: BASE_URL }));
const manifest = JSON.parse(files.get("manifest.json")!.toString()) as { files: { path: string; size: number; sha256: string }[] };
const listed = new Map(manifest.files.map((f) => [f.path, f]));
const variants = [...files.keys()].filter((path) => parseVariantPath(path) !== null && listed.get(parseVariantPath(path)!.original) !== undefined);

const decode = (encoding: string, data: Buffer) => (encoding === "gzip" ? gunzipSync(data) : brotliDecompressSync(data));

describe("precompressed variants", () => {
  it("exist in the build, in both encodings", () => {
    expect(variants.filter((p) => p.endsWith(".gz")).length).toBeGreaterThan(10);
    expect(variants.filter((p) => p.endsWith(".br")).length).toBeGreaterThan(10);
  });

  it("are written beside exactly the files the rule names (text of 1 KiB always gains)", () => {
    const wrong: string[] = [];
    for (const [path, data] of files) {
      if (path === "manifest.json" || variants.includes(path)) continue;
      for (const encoding of ENCODINGS) {
        const variant = files.get(path + VARIANT_SUFFIX[encoding]);
        const wanted = listVariantEncodings(path, data.byteLength).includes(encoding);
        // The dumps' own .csv.gz is a route file, not a variant (the rule gives the CSV none).
        if (!wanted && variant && !(encoding === "gzip" && path.startsWith("dumps/"))) wrong.push(`${path}: unexpected ${encoding}`);
        if (wanted && !variant) wrong.push(`${path}: no ${encoding}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("decode to their file, are smaller, and are listed with their size and SHA-256", () => {
    for (const path of variants) {
      const { original, encoding } = parseVariantPath(path)!;
      const data = files.get(path)!;
      expect(decode(encoding, data).equals(files.get(original)!), path).toBe(true);
      expect(data.byteLength, path).toBeLessThan(files.get(original)!.byteLength);
      expect(listed.get(path), path).toEqual({ path, size: data.byteLength, sha256: hashContent(data) });
    }
  });

  it("pin gzip's header: no time, no name, the OS byte 'unknown'", () => {
    for (const path of variants.filter((p) => p.endsWith(".gz"))) {
      const header = files.get(path)!.subarray(0, 10);
      expect([...header.subarray(0, 4)], path).toEqual([0x1f, 0x8b, 8, 0]);
      expect(header.readUInt32LE(4), path).toBe(0);
      expect(header[9], path).toBe(255);
    }
  });
});

describe("which files get variants", () => {
  it.each([
    ["api/companies.json", 2048, ["br", "gzip"]],
    ["embed/badge/x.html", 4096, ["br", "gzip"]],
    ["api/badge/x.svg", MIN_VARIANT_SIZE, ["br", "gzip"]],
    ["rss/all.rss", 50_000, ["br", "gzip"]],
    ["rss/all.feed.json", 50_000, ["br", "gzip"]],
    ["api/companies.json", MIN_VARIANT_SIZE - 1, []],
    ["search/global.json", MAX_VARIANT_SIZE, []],
    ["search/live.bin", 50_000, []],
    ["dumps/x.csv.gz", 50_000, []],
    ["dumps/companies-latest.csv", 50_000, []],
    ["_headers", 50_000, []],
  ] as const)("%s of %i bytes: %j", (path, size, encodings) => {
    expect(listVariantEncodings(path, size)).toEqual(encodings);
  });

  it("makes none of a file it does not gain on (a variant no smaller is dropped)", () => {
    const writer = new MemoryWriter();
    const noise = Buffer.concat(Array.from({ length: 128 }, (_, i) => createHash("sha256").update(String(i)).digest()));
    writer.write({ path: "api/noise.json", data: noise });
    writer.finish({});
    expect([...writer.files.keys()]).toEqual(["api/noise.json", "manifest.json"]);
  });
});
