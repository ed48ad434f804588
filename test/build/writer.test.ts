import { createHash } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { BuildError } from "../../build/errors.ts";
import { fnv1aBytes } from "../../build/fnv.cjs";
import { createDiskWriter, hashFile, MAX_BYTES_IN_FLIGHT, MemoryWriter, UNCHANGED, type DiskWriter, type OutputFile } from "../../build/writer/index.ts";
import { PathIndex, readManifestEntries, readManifestFile, type ManifestVisit } from "../../build/writer/tree-reuse.cjs";
import { FileSink } from "../../build/writer/file-sink.cjs";
import { createFileStore, SerialVariants, SharedVariants, STORE, type VariantEntry } from "../../build/writer/variant-jobs.cjs";
import { makeTempDir } from "../helpers/fixture.ts";

const dir = makeTempDir("writer");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `files` through a disk writer into `root` and into memory, and finishes both. */
function writeBoth(root: string, files: OutputFile[]): { disk: DiskWriter; memory: MemoryWriter } {
  const disk = createDiskWriter(root);
  const memory = new MemoryWriter();
  for (const file of files) {
    disk.write(file);
    memory.write(file);
  }
  disk.finish({});
  memory.finish({});
  return { disk, memory };
}

describe("the writer", () => {
  it("writes through its worker thread the same bytes and manifest as in memory", () => {
    const root = join(dir, "ok");
    const disk = createDiskWriter(root);
    const memory = new MemoryWriter();
    // Text of every UTF-8 length (a lone surrogate becomes U+FFFD, as Buffer.from makes it), bytes, and empty files.
    const texts = ["é<&>", "😀 عربى", "\ud800x", ""];
    for (let i = 0; i < 1000; i++) {
      const text = `${i}:${texts[i % texts.length]!.repeat(i % 7)}`;
      const data = i % 5 === 0 ? Buffer.from(text) : i % 11 === 0 ? "" : text;
      const file = { path: `api/check/u${i}.json`, data };
      disk.write(file);
      memory.write(file);
    }
    disk.finish({ as_of: "x" });
    memory.finish({ as_of: "x" });
    expect(readFileSync(join(root, "manifest.json"))).toEqual(memory.files.get("manifest.json"));
    expect(readFileSync(join(root, "api/check/u997.json"), "utf8")).toBe(`997:${"😀 عربى".repeat(3)}`);
    expect(readFileSync(join(root, "api/check/u2.json"), "utf8")).toBe("2:\ufffdx\ufffdx");
    expect(statSync(join(root, "api/check/u11.json")).size).toBe(0);
    expect(disk.byteCount).toBe(memory.byteCount);
  });

  it("writes the same precompressed variants through its worker thread as in memory", () => {
    const root = join(dir, "variants");
    const files = [
      { path: "api/companies.json", data: JSON.stringify({ items: Array.from({ length: 60 }, (_, i) => ({ name: `Company ${i}` })) }) },
      { path: "api/badge/x.svg", data: Buffer.from(`<svg>${"<g/>".repeat(300)}</svg>`) },
      { path: "api/small.json", data: "{}" },
    ];
    const { disk, memory } = writeBoth(root, files);
    expect([...memory.files.keys()]).toEqual(["api/companies.json", "api/companies.json.br", "api/companies.json.gz", "api/badge/x.svg", "api/badge/x.svg.br", "api/badge/x.svg.gz", "api/small.json", "manifest.json"]);
    for (const [path, bytes] of memory.files) expect(readFileSync(join(root, path)), path).toEqual(bytes);
    expect(disk.fileCount).toBe(7);
    expect(disk.byteCount).toBe(memory.byteCount);
  });

  it("keeps a file handed over as UNCHANGED from the current build: the manifest its bytes give, variants and all, linked", () => {
    const current = join(dir, "unchanged-current");
    const files = [
      { path: "api/check/a.json", data: JSON.stringify({ reports: Array.from({ length: 400 }, (_, i) => i) }) },
      { path: "api/check/b.json", data: "{}" },
    ];
    const first = createDiskWriter(current);
    for (const file of files) first.write(file);
    first.finish({});
    const next = join(dir, "unchanged-next");
    const disk = createDiskWriter(next, { hasBase: false, current, watch: { usernames: "api/check/" } });
    const memory = new MemoryWriter();
    for (const file of files) {
      disk.write({ path: file.path, data: UNCHANGED });
      memory.write(file);
    }
    const fresh = { path: "api/check/c.json", data: "{\"found\":true}" };
    disk.write(fresh);
    memory.write(fresh);
    disk.finish({});
    memory.finish({});
    expect([...memory.files.keys()]).toEqual(["api/check/a.json", "api/check/a.json.br", "api/check/a.json.gz", "api/check/b.json", "api/check/c.json", "manifest.json"]);
    expect(readFileSync(join(next, "manifest.json"))).toEqual(memory.files.get("manifest.json"));
    for (const path of ["api/check/a.json", "api/check/a.json.br", "api/check/b.json"]) expect(statSync(join(next, path)).ino, path).toBe(statSync(join(current, path)).ino);
    expect(disk.reused).toMatchObject({ written: 1, linked: 4, changed: { usernames: 1 } });
    expect(disk.byteCount).toBe(memory.byteCount);
  });

  it("refuses UNCHANGED without a current build, and for a path the current build does not have", () => {
    const lone = createDiskWriter(join(dir, "unchanged-lone"));
    expect(() => lone.write({ path: "api/check/a.json", data: UNCHANGED })).toThrow(BuildError);
    lone.abort();
    expect(() => new MemoryWriter().write({ path: "api/check/a.json", data: UNCHANGED })).toThrow(BuildError);
    const current = join(dir, "unchanged-current-2");
    const first = createDiskWriter(current);
    first.write({ path: "api/check/a.json", data: "{}" });
    first.finish({});
    const disk = createDiskWriter(join(dir, "unchanged-missing"), { hasBase: false, current, watch: {} });
    disk.write({ path: "api/check/zz.json", data: UNCHANGED });
    expect(() => disk.finish({})).toThrow(/writing api\/check\/zz\.json: said to be unchanged, but the current build has no api\/check\/zz\.json/);
  });

  it("writes large files on the calling thread and lists them in the manifest in build order", () => {
    const root = join(dir, "large");
    const big = Buffer.alloc(3 << 20, "é,\r\n");
    const bigText = "x".repeat(1 << 20);
    // Handed over as chunks made while it is written (however small), twice.
    const pieces = [Buffer.from("first,"), Buffer.alloc(0), Buffer.alloc(70_000, "ü")];
    const chunked = { byteLength: 70_006, chunks: () => pieces.map((p) => Buffer.from(p)) };
    const files = [
      { path: "a/small-before.json", data: "1" },
      { path: "dumps/big.csv", data: big },
      { path: "a/small-between.json", data: "2" },
      { path: "search/big.json", data: bigText },
      { path: "dumps/chunked.csv", data: chunked },
      { path: "a/small-after.json", data: "3" },
      { path: "dumps/big-latest.csv", data: big },
      { path: "dumps/chunked-latest.csv", data: chunked },
    ];
    const { disk, memory } = writeBoth(root, files);
    expect(readFileSync(join(root, "manifest.json"))).toEqual(memory.files.get("manifest.json"));
    const listed = (JSON.parse(readFileSync(join(root, "manifest.json"), "utf8")) as { files: { path: string; size: number }[] }).files;
    expect(listed.map((f) => f.path)).toEqual(files.map((f) => f.path));
    expect(readFileSync(join(root, "dumps/big.csv")).equals(big)).toBe(true);
    expect(readFileSync(join(root, "search/big.json"), "utf8")).toBe(bigText);
    // The same buffer twice is one file with two names.
    expect(statSync(join(root, "dumps/big-latest.csv")).ino).toBe(statSync(join(root, "dumps/big.csv")).ino);
    expect(readFileSync(join(root, "dumps/big-latest.csv")).equals(big)).toBe(true);
    expect(readFileSync(join(root, "dumps/chunked.csv")).equals(Buffer.concat(pieces))).toBe(true);
    expect(statSync(join(root, "dumps/chunked-latest.csv")).ino).toBe(statSync(join(root, "dumps/chunked.csv")).ino);
    expect(disk.fileCount).toBe(8);
    expect(disk.byteCount).toBe(memory.byteCount);
  });

  it("refuses chunks that do not add up to the size they announced", () => {
    const disk = createDiskWriter(join(dir, "short"));
    const short = { byteLength: 10, chunks: () => [Buffer.from("12345")] };
    expect(() => disk.write({ path: "dumps/short.csv", data: short })).toThrow(/writing dumps\/short.csv: 5 bytes written, 10 announced/);
    disk.abort();
    expect(() => new MemoryWriter().write({ path: "dumps/short.csv", data: short })).toThrow(/5 bytes written, 10 announced/);
  });

  it("has its thread inflate and write a file of gzip members (a dump's CSV), under both its names, after the files before it", () => {
    const root = join(dir, "members");
    const raws = [Buffer.alloc(200_000, "a,b\r\n"), Buffer.from("c,d\r\n"), Buffer.alloc(90_000, "é")];
    const members = raws.map((raw) => gzipSync(raw));
    const whole = Buffer.concat(raws);
    const csv = {
      byteLength: whole.byteLength,
      sha256: createHash("sha256").update(whole).digest("hex"),
      gzipMembers: { members, sizes: raws.map((raw) => raw.byteLength) },
      chunks: () => raws,
    };
    const files = [
      { path: "dumps/before.json", data: "1" },
      { path: "dumps/members.csv", data: csv },
      { path: "dumps/members-latest.csv", data: csv },
      { path: "dumps/after.json", data: "2" },
    ];
    const { memory } = writeBoth(root, files);
    expect(readFileSync(join(root, "manifest.json"))).toEqual(memory.files.get("manifest.json"));
    expect(readFileSync(join(root, "dumps/members.csv")).equals(whole)).toBe(true);
    expect(statSync(join(root, "dumps/members-latest.csv")).ino).toBe(statSync(join(root, "dumps/members.csv")).ino);
  });

  it("refuses gzip members that do not inflate to the sizes they announce, naming the file", () => {
    const raw = Buffer.from("12345");
    const wrong = { byteLength: 6, sha256: "0".repeat(64), gzipMembers: { members: [gzipSync(raw)], sizes: [6] }, chunks: () => [raw] };
    const disk = createDiskWriter(join(dir, "members-short"));
    disk.write({ path: "dumps/short.csv", data: wrong });
    expect(() => disk.finish({})).toThrow(/writing dumps\/short.csv: dump batch 0 inflated to 5 bytes, not 6/);
  });

  it("turns a failed write in the worker into a BuildError naming the file", () => {
    const root = join(dir, "fail");
    const disk = createDiskWriter(root);
    disk.write({ path: "a", data: "file" });
    // `a` is a file, so `a/b` cannot be created under it.
    disk.write({ path: "a/b", data: "x" });
    expect(() => disk.finish({})).toThrow(BuildError);
    expect(() => disk.finish({})).toThrow(/writing a\/b/);
  });

  it("returns from abort only once its worker writes no more, so the folder can be deleted at once", async () => {
    const root = join(dir, "aborted");
    const disk = createDiskWriter(root);
    // Many batches queued ahead of the worker, none yet finished.
    for (let i = 0; i < 20_000; i++) disk.write({ path: `api/check/u${i}.json`, data: `{"n":${i}}` });
    disk.abort();
    rmSync(root, { recursive: true, force: true });
    // A worker still writing would make the folder again (it makes each file's folder as needed).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(root)).toBe(false);
    expect(() => disk.finish({})).toThrow(/the file writer was stopped/);
  });

  it("queues at most MAX_BYTES_IN_FLIGHT ahead of its worker, however large the files, and nothing once stopped", () => {
    const root = join(dir, "queued");
    const disk = createDiskWriter(root);
    // 1.6 times the bound in files just under the size written on the calling thread: the worker
    // hashes, compresses (.json files get .gz and .br) and writes each, while handing one over is
    // a copy, so the queue fills. (With .bin files, which are only hashed and written, the worker
    // kept up once in a CI run of the whole suite on two busy cores: the queue reached 47 %.)
    const file = new Uint8Array((1 << 20) - 1).fill(7);
    const files = Math.ceil((1.6 * MAX_BYTES_IN_FLIGHT) / file.length);
    let most = 0;
    for (let i = 0; i < files; i++) {
      disk.write({ path: `big/${i}.json`, data: file });
      most = Math.max(most, disk.queuedBytes);
    }
    expect(most).toBeLessThanOrEqual(MAX_BYTES_IN_FLIGHT);
    // It did fill: the bound was what held it.
    expect(most).toBeGreaterThan(MAX_BYTES_IN_FLIGHT / 2);
    disk.abort();
    expect(disk.queuedBytes).toBe(0);
    rmSync(root, { recursive: true, force: true });
  });

  it.each(["../escape", "/abs", "a/../b", "a//b", ".hidden", "manifest.json", "spa ce"])("refuses the unsafe path %j", (path) => {
    const memory = new MemoryWriter();
    expect(() => memory.write({ path, data: "x" })).toThrow(/unsafe path/);
    expect(existsSync(join(dir, "escape"))).toBe(false);
  });
});

describe("reading a kept build's manifest (tree-reuse.cjs)", () => {
  it("reads a manifest of many mebibytes a mebibyte at a time, every line whole, as from one buffer", () => {
    const hash = (i: number) => createHash("sha256").update(String(i)).digest("hex");
    const lines = Array.from({ length: 30_000 }, (_, i) => `{"path":"api/check/user_${"x".repeat(i % 97)}${i}.json","size":${i * 7},"sha256":"${hash(i)}"}`);
    const text = `{"files":[\n${lines.join(",\n")}\n],"file_count":${lines.length}}\n`;
    expect(text.length).toBeGreaterThan(3 * 2 ** 20);
    const file = join(dir, "manifest-read.json");
    writeFileSync(file, text);
    const read = (visit: (collect: ManifestVisit) => void) => {
      const entries: string[] = [];
      visit((bytes, from, to, size, digest, pathHash) => {
        // The path's hash, taken as the line is read, is the one the index of paths would take.
        expect(pathHash).toBe(fnv1aBytes(bytes, from, to));
        entries.push(`${bytes.toString("latin1", from, to)} ${size} ${digest.toString("hex")}`);
      });
      return entries;
    };
    const chunked = read((collect) => readManifestFile(file, collect));
    expect(chunked).toHaveLength(lines.length);
    expect(chunked).toEqual(read((collect) => readManifestEntries(Buffer.from(text), collect)));
    expect(chunked[12_345]).toBe(`api/check/user_${"x".repeat(12_345 % 97)}12345.json ${12_345 * 7} ${hash(12_345)}`);
    // Its hash (the state's check of a kept folder) is read the same way, and is the whole file's.
    expect(hashFile(file)).toBe(createHash("sha256").update(text).digest("hex"));
    writeFileSync(file, "");
    expect(hashFile(file)).toBe(createHash("sha256").digest("hex"));
  });

  it.each([
    ["a hash in capitals", `{"path":"a.json","size":1,"sha256":"${"AB".repeat(32)}"}`],
    ["a hash a digit short", `{"path":"a.json","size":1,"sha256":"${"ab".repeat(31)}a"}`],
    ["a hash that is not hex", `{"path":"a.json","size":1,"sha256":"${"ag".repeat(32)}"}`],
    ["a size that is not a whole number", `{"path":"a.json","size":1.5,"sha256":"${"ab".repeat(32)}"}`],
    ["no size", `{"path":"a.json","size":,"sha256":"${"ab".repeat(32)}"}`],
    ["no hash", `{"path":"a.json","size":1}`],
  ])("refuses a line with %s, saying where it is", (_, line) => {
    const text = `{"files":[\n{"path":"ok.json","size":2,"sha256":"${"cd".repeat(32)}"},\n${line}\n],"file_count":2}\n`;
    const seen: string[] = [];
    expect(() => readManifestEntries(Buffer.from(text), (bytes, from, to) => seen.push(bytes.toString("latin1", from, to)))).toThrow(`unreadable manifest line at byte ${text.indexOf(line)}`);
    expect(seen).toEqual(["ok.json"]);
  });
});

describe("the kept builds' index of paths (tree-reuse.cjs)", () => {
  it("gives each path one slot, in the order first seen, past the room foreseen and through rehashing", () => {
    // Room for 4 paths: its bytes, starts and table all grow; names that are prefixes of others, and equal lengths.
    const index = new PathIndex(4);
    const paths = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `api/check/u${i}.json` : i % 3 === 1 ? `api/check/u${i}.json.gz` : `e/${"x".repeat(i % 200)}`));
    const unique = [...new Set(paths)];
    for (const path of paths) index.slotOf(path);
    expect(index.size).toBe(unique.length);
    unique.forEach((path, slot) => {
      expect(index.get(path)).toBe(slot);
      expect(index.slotOf(path)).toBe(slot);
      expect(index.pathAt(slot)).toBe(path);
    });
    expect(index.size).toBe(unique.length);
    for (const missing of ["api/check/u0.jso", "api/check/u0.json.br", "", "e/" + "x".repeat(200)]) expect(index.get(missing)).toBe(-1);
  });

  it("finds a path given as bytes (a manifest's) in the slot of the same path given as text, and the other way round", () => {
    const index = new PathIndex(4);
    const line = Buffer.from("xx api/check/a.json yy api/check/b.json.gz zz");
    const a = index.slotOfBytes(line, 3, 19);
    expect(index.slotOf("api/check/a.json")).toBe(a);
    expect(index.slotOf("api/check/b.json")).toBe(a + 1);
    // A prefix of a path held is another path; the path held is found again from other bytes.
    expect(index.slotOfBytes(line, 23, 39)).toBe(a + 1);
    expect(index.slotOfBytes(line, 23, 42)).toBe(a + 2);
    expect(index.slotOfBytes(Buffer.from("api/check/a.json"), 0, 16)).toBe(a);
    expect(index.get("api/check/b.json.gz")).toBe(a + 2);
    expect(index.pathAt(a + 2)).toBe("api/check/b.json.gz");
    // Through the rehashing, by bytes too.
    for (let i = 0; i < 3000; i++) index.slotOfBytes(Buffer.from(`p/${i}`), 0, `p/${i}`.length);
    expect(index.get("p/2999")).toBe(a + 3 + 2999);
    expect(index.slotOf("api/check/a.json")).toBe(a);
  });
});

describe("variants made beside the writer (variant-jobs.cjs)", () => {
  /** Compressible files of a few sizes, each different. */
  const jobs = Array.from({ length: 48 }, (_, i) => {
    const text = Array.from({ length: 200 + i * 97 }, (_, k) => `<tr><td>${(k * 7919 + i) % 1000}</td><td>row ${k}</td></tr>`).join("\n");
    return { path: `page/${i}.html`, bytes: Buffer.from(text), encodings: ["br", "gzip"] as const };
  });

  it("are the same bytes, in the same order, whichever thread made each, and the helper makes some", () => {
    const serial = new SerialVariants();
    serial.start(jobs);
    const expected = serial.finish();
    const shared = new SharedVariants();
    try {
      shared.start(jobs);
      const made = shared.finish();
      // Each variant's path, its listed hash and the hash of the bytes it carries.
      const summarize = (made: VariantEntry[][]) => made.map((v) => v.map((e) => [e.path, e.sha256, createHash("sha256").update(e.data).digest("hex")]));
      expect(summarize(made)).toEqual(summarize(expected));
      expect(made.flat().every((e) => createHash("sha256").update(e.data).digest("hex") === e.sha256)).toBe(true);
      expect(shared.helped).toBeGreaterThan(0);
      // A second batch through the same helper: the counters start over.
      shared.start(jobs.slice(0, 8));
      expect(shared.finish().flat().map((e) => e.sha256)).toEqual(expected.slice(0, 8).flat().map((e) => e.sha256));
    } finally {
      void shared.helper.terminate();
    }
  });

  it("are made in the writer's own thread once the helper is gone, not waited for", async () => {
    const shared = new SharedVariants();
    await shared.helper.terminate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(shared.broken).toMatch(/exited/);
    shared.start(jobs);
    const helped = shared.helped;
    expect(shared.finish().flat().length).toBeGreaterThan(jobs.length);
    expect(shared.helped).toBe(helped);
  });
});

describe("files stored beside the writer (variant-jobs.cjs, shared stores)", () => {
  const files = Array.from({ length: 64 }, (_, i) => ({ path: `api/check/u${i}.json`, data: `{"username":"u${i}","n":${i * 7919}}`, encodings: [] as const }));
  /**
   * The writer's own store: it waits, before its first file, until the helper has taken two
   * (the shared counter has moved past them), so that both threads store some of every batch.
   */
  const patientStore = (shared: InstanceType<typeof SharedVariants>, store: (path: string, data: Uint8Array) => void) => {
    let first = true;
    return (path: string, data: Uint8Array) => {
      const deadline = Date.now() + 10_000;
      while (first && Atomics.load(shared.state, STORE) < 3 && Date.now() < deadline) Atomics.wait(shared.state, STORE, Atomics.load(shared.state, STORE), 5);
      first = false;
      store(path, data);
    };
  };

  /** `run` with a SharedVariants whose helper stores into `root`, stopped afterwards. */
  const withHelper = (root: string, run: (shared: InstanceType<typeof SharedVariants>) => void) => {
    const shared = new SharedVariants(root);
    try {
      run(shared);
    } finally {
      void shared.helper.terminate();
    }
  };

  it("stores each file once, whichever thread stores it, and lists them in the batch's order", () => {
    const root = join(dir, "shared-stores");
    withHelper(root, (shared) => {
      let manifest = "";
      const sink = new FileSink(patientStore(shared, createFileStore(root)), (text) => (manifest += text));
      sink.writeBatch(files, shared);
      sink.finish({});
      expect(shared.stored).toBeGreaterThan(0);
      expect(shared.stored).toBeLessThan(files.length);
      expect(readdirSync(join(root, "api/check")).sort()).toEqual(files.map((f) => f.path.slice("api/check/".length)).sort());
      for (const file of files) expect(readFileSync(join(root, file.path), "utf8")).toBe(file.data);
      expect((JSON.parse(manifest) as { files: { path: string }[] }).files.map((f) => f.path)).toEqual(files.map((f) => f.path));
    });
  });

  it("fails with the file the helper could not store, named, with the system's code", () => {
    // The helper's folder cannot hold api/check/ (a file is in the way); the writer's own stores go elsewhere and succeed.
    const blocked = join(dir, "shared-blocked");
    const own = join(dir, "shared-writer-own");
    mkdirSync(blocked, { recursive: true });
    writeFileSync(join(blocked, "api"), "not a folder");
    withHelper(blocked, (shared) => {
      const sink = new FileSink(patientStore(shared, createFileStore(own)), () => {});
      let thrown: unknown;
      try {
        sink.writeBatch(files, shared);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as NodeJS.ErrnoException)?.code).toMatch(/^(ENOTDIR|EEXIST)$/);
      // The file named is one the helper took, not one the writer stored.
      expect(sink.current).toMatch(/^api\/check\/u\d+\.json$/);
      expect(existsSync(join(own, sink.current))).toBe(false);
      // The next batch goes through the same helper: its counters and answer start over.
      const ok = new FileSink(createFileStore(join(dir, "shared-after")), () => {});
      ok.writeBatch(files.slice(0, 4), shared);
      expect(existsSync(join(dir, "shared-after", files[3]!.path))).toBe(true);
    });
  });

  it("stores every file of a batch too small to share its files, its variants still shared", () => {
    const root = join(dir, "shared-few");
    withHelper(root, (shared) => {
      const pages = Array.from({ length: 6 }, (_, i) => ({ path: `page/${i}.html`, data: `<p>${"row ".repeat(600)}${i}</p>`, encodings: ["br", "gzip"] as const }));
      new FileSink(createFileStore(root), () => {}).writeBatch(pages, shared);
      expect(readdirSync(join(root, "page")).sort()).toEqual(pages.flatMap((p) => [p.path, `${p.path}.br`, `${p.path}.gz`]).map((p) => p.slice("page/".length)).sort());
      expect(shared.stored).toBe(0);
    });
  });

  it("stores the variants the helper makes, clearing first an older file at a path it is told of", () => {
    const root = join(dir, "shared-variants");
    const other = join(dir, "shared-variants-other");
    const pages = Array.from({ length: 48 }, (_, i) => {
      const text = Array.from({ length: 200 + i * 97 }, (_, k) => `<tr><td>${(k * 7919 + i) % 1000}</td><td>row ${k}</td></tr>`).join("\n");
      return { path: `page/${i}.html`, bytes: Buffer.from(text), encodings: ["br", "gzip"] as const };
    });
    // An older build's variants, each a hard link shared with another folder, which must keep its bytes.
    mkdirSync(join(root, "page"), { recursive: true });
    mkdirSync(other, { recursive: true });
    for (const page of pages) {
      writeFileSync(join(other, `${page.path.slice(5)}.gz`), "older");
      linkSync(join(other, `${page.path.slice(5)}.gz`), join(root, `${page.path}.gz`));
    }
    const serial = new SerialVariants();
    serial.start(pages);
    const expected = serial.finish();
    withHelper(root, (shared) => {
      // A first batch (under warm/), so that the helper has started before the one measured.
      shared.start(pages.slice(0, 8).map((page) => ({ ...page, path: `warm/${page.path}` })));
      shared.finish();
      shared.start(pages.map((page) => ({ ...page, replaces: [`${page.path}.gz`] })));
      const made = shared.finish();
      expect(shared.storedVariants).toBeGreaterThan(0);
      expect(made.map((v) => v.map((e) => e.sha256))).toEqual(expected.map((v) => v.map((e) => e.sha256)));
      // Those marked stored are in place, as new files; the others are left for the writer.
      const stored = made.flat().filter((e) => e.stored);
      expect(stored.length).toBe(shared.storedVariants);
      for (const entry of stored) expect(createHash("sha256").update(readFileSync(join(root, entry.path))).digest("hex")).toBe(entry.sha256);
      for (const page of pages) expect(readFileSync(join(other, `${page.path.slice(5)}.gz`), "utf8")).toBe("older");
    });
  });

  it("takes no more files once stopped, on either thread, and stores nothing after", () => {
    const root = join(dir, "shared-stopped");
    // Enough files that the helper is still storing when the writer stops after its first.
    const many = Array.from({ length: 3000 }, (_, i) => ({ path: `api/check/m${i}.json`, data: `{"n":${i}}`, encodings: [] as const }));
    withHelper(root, (shared) => {
      let stores = 0;
      const store = createFileStore(root);
      const sink = new FileSink(patientStore(shared, (path, data) => (stores++, store(path, data))), () => {});
      sink.writeBatch(many, shared, () => stores >= 1);
      const count = () => readdirSync(join(root, "api/check")).length;
      const after = count();
      // The helper stored a few while the writer stored its one, not the rest of the batch.
      expect(after).toBeLessThan(many.length / 2);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      expect(count()).toBe(after);
    });
  });
});

describe("a batch written while the build stops (FileSink.writeBatch)", () => {
  it("stores nothing more once stopped, not even the rest of its batch", () => {
    const stored: string[] = [];
    const sink = new FileSink((path) => stored.push(path), () => {});
    const big = "x".repeat(4096);
    const files = Array.from({ length: 6 }, (_, i) => ({ path: `page/${i}.html`, data: big + i, encodings: ["br", "gzip"] as const }));
    sink.writeBatch(files, new SerialVariants(), () => stored.length >= 2);
    expect(stored).toEqual(["page/0.html", "page/1.html"]);
    // Not stopped: the batch's files are stored first, their variants after; the manifest lists each file with its variants right after it.
    const all: string[] = [];
    let manifest = "";
    const whole = new FileSink((path) => all.push(path), (text) => (manifest += text));
    whole.writeBatch(files.slice(0, 2), new SerialVariants());
    whole.finish({});
    expect(all).toEqual(["page/0.html", "page/1.html", "page/0.html.br", "page/0.html.gz", "page/1.html.br", "page/1.html.gz"]);
    expect((JSON.parse(manifest) as { files: { path: string }[] }).files.map((f) => f.path)).toEqual([
      "page/0.html",
      "page/0.html.br",
      "page/0.html.gz",
      "page/1.html",
      "page/1.html.br",
      "page/1.html.gz",
    ]);
  });
});
