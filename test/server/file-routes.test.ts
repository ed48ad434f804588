/**
 * How the server answers a file of the build (server/file-store.ts, server/send-file.ts): byte
 * ranges, conditional requests, the precompressed siblings, and files held in memory — each for
 * a file held in memory and for one streamed from disk, in-process and over a real socket.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

const DUMP = "/dumps/spammers-latest.csv";
/** A file the build writes `.br` and `.gz` beside (docs/operators.md "Compression"). */
const CARD = "/api/card/alpha-leads.svg";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("file-routes");
});
afterAll(() => fixture.cleanup());

/**
 * Held: the default budgets (the sample's files are small ones). Held large: every file over 16
 * bytes is a large one, read whole asynchronously and held. Streamed: every file over 16 bytes is
 * streamed from disk.
 */
const STORES = {
  held: undefined,
  "held large": { memoryBytes: 64 << 20, maxMemoryFileBytes: 16, largeMemoryBytes: 64 << 20 },
  streamed: { memoryBytes: 64 << 20, maxMemoryFileBytes: 16, largeMemoryBytes: 0 },
} as const;

describe.each(CLIENT_KINDS.flatMap((kind) => (["held", "held large", "streamed"] as const).map((store) => [`${kind}, ${store}`, kind, store] as const)))(
  "a file of the build (%s)",
  (_, kind, store) => {
    let client: Client;
    let dump: Buffer;
    beforeAll(async () => {
      client = await createClient(kind, fixture.dist, { fileStore: STORES[store] });
      dump = readFileSync(join(fixture.dist, DUMP));
    });
    afterAll(() => client.close());

    it("answers a range with 206 and exactly those bytes, and says it takes ranges", async () => {
      const whole = await client.fetch(DUMP);
      expect(whole.headers.get("accept-ranges")).toBe("bytes");
      expect(Buffer.from(await whole.arrayBuffer()).equals(dump)).toBe(true);
      for (const [range, start, end] of [
        ["bytes=0-99", 0, 99],
        ["bytes=100-", 100, dump.length - 1],
        ["bytes=-50", dump.length - 50, dump.length - 1],
        [`bytes=10-${dump.length + 1000}`, 10, dump.length - 1],
      ] as const) {
        // Asking for gzip too changes nothing: ranges are of the file itself.
        const res = await client.fetch(DUMP, { headers: { range, "accept-encoding": "gzip, br" } });
        expect(res.status, range).toBe(206);
        expect(res.headers.get("content-encoding")).toBeNull();
        expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/${dump.length}`);
        expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
        expect(res.headers.get("content-length")).toBe(String(end - start + 1));
        expect(Buffer.from(await res.arrayBuffer()).equals(dump.subarray(start, end + 1)), range).toBe(true);
      }
    });

    it("answers several ranges as multipart/byteranges, parts in file order", async () => {
      const res = await client.fetch(DUMP, { headers: { range: "bytes=200-209, 0-9" } });
      expect(res.status).toBe(206);
      const boundary = /^multipart\/byteranges; boundary=(\S+)$/.exec(res.headers.get("content-type") ?? "")?.[1];
      expect(boundary).toBeTruthy();
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get("content-length")).toBe(String(body.length));
      const parts = body.toString("latin1").split(`--${boundary}`).slice(1, -1);
      expect(parts.map((p) => /content-range: ([^\r\n]+)/.exec(p)?.[1])).toEqual([`bytes 0-9/${dump.length}`, `bytes 200-209/${dump.length}`]);
      expect(parts.map((p) => p.split("\r\n\r\n")[1]!.replace(/\r\n$/, ""))).toEqual([dump.subarray(0, 10).toString("latin1"), dump.subarray(200, 210).toString("latin1")]);
    });

    it("answers a range past the end with 416 and the size, and ignores one it cannot read", async () => {
      const past = await client.fetch(DUMP, { headers: { range: `bytes=${dump.length}-` } });
      expect(past.status).toBe(416);
      expect(past.headers.get("content-range")).toBe(`bytes */${dump.length}`);
      expect(past.headers.get("access-control-allow-origin")).toBe("*");
      for (const range of ["bytes=abc", "bytes=5-1", "lines=1-2"]) {
        const res = await client.fetch(DUMP, { headers: { range } });
        expect(res.status, range).toBe(200);
        expect((await res.arrayBuffer()).byteLength).toBe(dump.length);
      }
    });

    it("resumes only the same file: If-Range with its ETag or date gives the range, with another the whole file", async () => {
      // The ETag of the file itself: ranges are never of a compressed form (fetch asks for one on a socket).
      const { headers } = await client.fetch(DUMP, { method: "HEAD", headers: { "accept-encoding": "identity" } });
      const etag = headers.get("etag")!;
      const lastModified = headers.get("last-modified")!;
      const asOf = JSON.parse(readFileSync(join(fixture.dist, "build-report.json"), "utf8")).as_of;
      expect(lastModified).toBe(new Date(asOf).toUTCString());
      expect((await client.fetch(DUMP, { headers: { range: "bytes=0-9", "if-range": etag } })).status).toBe(206);
      expect((await client.fetch(DUMP, { headers: { range: "bytes=0-9", "if-range": lastModified } })).status).toBe(206);
      const stale = await client.fetch(DUMP, { headers: { range: "bytes=0-9", "if-range": '"an-older-build"' } });
      expect(stale.status).toBe(200);
      expect((await stale.arrayBuffer()).byteLength).toBe(dump.length);
    });

    it("answers If-None-Match with 304, and HEAD with GET's headers and no body", async () => {
      const get = await client.fetch(DUMP);
      await get.arrayBuffer();
      const head = await client.fetch(DUMP, { method: "HEAD" });
      for (const name of ["etag", "content-length", "content-type", "last-modified", "cache-control", "accept-ranges"]) {
        expect(head.headers.get(name), name).toBe(get.headers.get(name));
      }
      expect(await head.text()).toBe("");
      const again = await client.fetch(DUMP, { headers: { "if-none-match": get.headers.get("etag")! } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    });

    it("sends the precompressed sibling the client prefers, with Vary, and the file itself to one that takes neither", async () => {
      const plain = readFileSync(join(fixture.dist, "api/card/alpha-leads.svg"));
      const br = await client.fetch(CARD, { headers: { "accept-encoding": "gzip, br" } });
      const gz = await client.fetch(CARD, { headers: { "accept-encoding": "br;q=0, gzip" } });
      const none = await client.fetch(CARD, { headers: { "accept-encoding": "identity" } });
      expect([br, gz, none].map((r) => r.headers.get("vary"))).toEqual(["accept-encoding", "accept-encoding", "accept-encoding"]);
      expect([br, gz, none].map((r) => r.headers.get("content-encoding"))).toEqual(["br", "gzip", null]);
      expect([br, gz, none].map((r) => r.headers.get("content-type"))).toEqual(Array(3).fill("image/svg+xml; charset=utf-8"));
      // fetch decodes what it asked for on the socket; in-process answers come as sent.
      const decode = async (res: Response, coding: "br" | "gzip") => {
        const bytes = Buffer.from(await res.arrayBuffer());
        if (kind === "listening server") return bytes;
        return coding === "br" ? brotliDecompressSync(bytes) : gunzipSync(bytes);
      };
      expect((await decode(br, "br")).equals(plain)).toBe(true);
      expect((await decode(gz, "gzip")).equals(plain)).toBe(true);
      expect(Buffer.from(await none.arrayBuffer()).equals(plain)).toBe(true);
      // Each representation is its own: its own ETag, revalidated as itself.
      const tags = [br, gz, none].map((r) => r.headers.get("etag"));
      expect(new Set(tags).size).toBe(3);
      const revalidated = await client.fetch(CARD, { headers: { "accept-encoding": "br", "if-none-match": tags[0]! } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get("vary")).toBe("accept-encoding");
    });

    it("never sends a dump's own .csv.gz (a download of gzip members) as the CSV's encoding, nor a variant of a file without one", async () => {
      for (const path of [DUMP, "/dumps/spammers-latest.csv.gz", "/api/check/spam_king"]) {
        const res = await client.fetch(path, { headers: { "accept-encoding": "identity;q=0.1, gzip, br" } });
        expect(res.status, path).toBe(200);
        expect(res.headers.get("content-encoding"), path).toBeNull();
        expect(res.headers.get("vary"), path).toBeNull();
      }
    });
  },
);

describe("files held in memory", () => {
  it("are answered from memory once read, and read from disk every time with --file-memory 0", async () => {
    const local = buildFixture("file-memory");
    try {
      const held = await createClient("in-process", local.dist);
      const unheld = await createClient("in-process", local.dist, { fileStore: { memoryBytes: 0, maxMemoryFileBytes: 1 << 20, largeMemoryBytes: 0 } });
      const path = "/api/badge/alpha-leads.svg";
      const first = [await (await held.fetch(path)).text(), await (await unheld.fetch(path)).text()];
      expect(first[0]).toBe(first[1]);
      // A published build never changes; removing the file shows who still reads the disk.
      rmSync(join(local.dist, "api/badge/alpha-leads.svg"));
      const heldAgain = await held.fetch(path);
      expect(heldAgain.status).toBe(200);
      expect(await heldAgain.text()).toBe(first[0]);
      expect((await unheld.fetch(path)).status).toBe(404);
    } finally {
      local.cleanup();
    }
  });
});

describe("large files held in memory", () => {
  it("are held within their own budget, one let go streamed from then on, and all streamed from disk with --large-file-memory 0", async () => {
    const local = buildFixture("large-file-memory");
    try {
      const [dump, companies] = ["dumps/spammers-latest.csv", "dumps/companies-latest.csv"].map((path) => ({ path, bytes: readFileSync(join(local.dist, path)) }));
      // Both are large files here (over 16 bytes); the budget holds either, never both.
      const budget = Math.max(dump!.bytes.length, companies!.bytes.length);
      expect(budget).toBeLessThan(dump!.bytes.length + companies!.bytes.length);
      const held = await createClient("in-process", local.dist, { fileStore: { memoryBytes: 64 << 20, maxMemoryFileBytes: 16, largeMemoryBytes: budget } });
      const streamed = await createClient("in-process", local.dist, { fileStore: { memoryBytes: 64 << 20, maxMemoryFileBytes: 16, largeMemoryBytes: 0 } });
      const get = async (client: Client, file: { path: string }) => {
        const res = await client.fetch(`/${file.path}`);
        return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
      };
      for (const client of [held, streamed]) expect(await get(client, dump!)).toEqual({ status: 200, bytes: dump!.bytes });
      expect(await get(held, companies!)).toEqual({ status: 200, bytes: companies!.bytes });
      // The spammers dump was let go for the companies dump: asked again, it is streamed, not read
      // whole again (which would let the companies dump go in turn).
      expect(await get(held, dump!)).toEqual({ status: 200, bytes: dump!.bytes });
      // A published build never changes; removing the files shows who still reads the disk: the
      // companies dump is held, the spammers dump is streamed (its file gone: a 500), as it is in the
      // streamed store.
      for (const file of [dump!, companies!]) rmSync(join(local.dist, file.path));
      expect(await get(held, companies!)).toEqual({ status: 200, bytes: companies!.bytes });
      expect((await held.fetch(`/${dump!.path}`)).status).toBe(500);
      expect((await streamed.fetch(`/${dump!.path}`)).status).toBe(500);
      await Promise.all([held.close(), streamed.close()]);
    } finally {
      local.cleanup();
    }
  });
});
