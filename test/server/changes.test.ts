/**
 * The change feed across publishes (docs/change-feed.md): `/api/changes?since=` is the composition
 * of the change files after `since`, and applied to the dump of `since` gives the current dump
 * exactly; the index keeps what the retention says and forgets the rest as gone (410), not unknown;
 * a history whose files were altered starts again from what is intact.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDist, type BuildSummary } from "../../build/build.ts";
import type { ChangeRetention } from "../../build/publish.ts";
import { applyChanges, composeChanges, formatChange, isChangeFeedFile, parseChange, toChangeHeader, type ChangeDataset } from "../../core/changes/merge.ts";
import { readCsvRecords } from "../../core/changes/records.ts";
import type { ChangeIndex } from "../../core/routes/changes-schema.ts";
import { generateSample } from "../../data/sample/generate.ts";
import { createApp } from "../../server/app.ts";
import { BASE_URL, makeTempDir } from "../helpers/fixture.ts";
import { applyEdit, findEdit } from "../helpers/snapshot-edits.ts";

const EDITS = ["reports added for existing usernames", "company renamed", "usernames vanishing", "as_of a day later"];

let dir: string;
let out: string;
/** Each publish's build id and its dumps as they were (their folders do not all stay). */
const publishes: { id: string; dumps: Record<ChangeDataset, string> }[] = [];

function publish(db: string, changeRetention?: ChangeRetention): BuildSummary {
  const summary = buildDist({ db, out, baseUrl: BASE_URL, progress: null, readerGraceSeconds: 0, changeRetention });
  const dump = (dataset: ChangeDataset) => readFileSync(join(summary.buildDir, `dumps/${dataset}-latest.csv`), "utf8");
  publishes.push({ id: summary.buildId, dumps: { spammers: dump("spammers"), companies: dump("companies") } });
  return summary;
}

const readIndex = () => JSON.parse(readFileSync(join(out, "dumps/changes/index.json"), "utf8")) as ChangeIndex;
const rowsOf = (text: string) => [...readCsvRecords([Buffer.from(text)])];
const changesOf = (text: string) => rowsOf(text).slice(1).map(parseChange);

beforeAll(() => {
  dir = makeTempDir("changes");
  out = join(dir, "dist");
  let db = join(dir, "p0.sqlite");
  generateSample({ scale: 300, seed: "changes", out: db, asOf: "2026-03-11T10:00:00Z" });
  publish(db);
  EDITS.forEach((name, i) => {
    const next = join(dir, `p${i + 1}.sqlite`);
    applyEdit(db, next, findEdit(name));
    db = next;
    publish(db);
  });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("GET /api/changes?since=", () => {
  it.each(["spammers", "companies"] as const)("is the composition of the %s change files since the publish, and turns its dump into the current one", async (dataset) => {
    const app = createApp({ dist: out });
    const index = readIndex();
    expect(index.publishes.map((p) => p.build)).toEqual(publishes.map((p) => p.id).reverse());
    for (let since = 0; since < publishes.length; since++) {
      const res = await app.request(`/api/changes?since=${publishes[since]!.id}${dataset === "companies" ? "&dataset=companies" : ""}`);
      expect(res.status).toBe(200);
      const body = await res.text();
      // The change files of the publishes after it, oldest first, composed.
      const files = index.publishes
        .slice(0, publishes.length - 1 - since)
        .reverse()
        .map((p) => changesOf(readFileSync(join(out, "dumps/changes", p.files.find((f) => f.dataset === dataset && f.name.endsWith(".csv"))!.name), "utf8")));
      const header = toChangeHeader(rowsOf(publishes[since]!.dumps[dataset])[0]!.text);
      const columns = header.split(",").length - 1;
      expect(body).toBe(header + [...composeChanges(files, dataset, columns)].map(formatChange).join(""));
      const applied = [...applyChanges(rowsOf(publishes[since]!.dumps[dataset]), changesOf(body), dataset)].join("");
      expect(applied).toBe(publishes.at(-1)!.dumps[dataset]);
    }
  });

  it("names the current publish in Build-Id, and revalidates by ETag", async () => {
    const app = createApp({ dist: out });
    const url = `/api/changes?since=${publishes[1]!.id}`;
    const res = await app.request(url);
    const current = publishes.at(-1)!.id;
    expect(res.headers.get("build-id")).toBe(current);
    expect(res.headers.get("access-control-expose-headers")).toBe("Build-Id, ETag");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("last-modified")).toBeTruthy();
    await res.arrayBuffer();
    const etag = res.headers.get("etag")!;
    const again = await app.request(url, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const head = await app.request(url, { method: "HEAD" });
    expect([head.status, await head.text(), head.headers.get("build-id")]).toEqual([200, "", current]);
    // Since the current publish: the header row alone.
    const none = await (await app.request(`/api/changes?since=${current}`)).text();
    expect(rowsOf(none)).toHaveLength(1);
  });

  it("answers 404 for a publish never made and 422 for what is no build id", async () => {
    const app = createApp({ dist: out });
    const unknown = await app.request("/api/changes?since=0123456789abcdef");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).detail).toContain("/dumps/spammers-latest.csv");
    for (const query of ["", "?since=nope", `?since=${publishes[0]!.id}&dataset=people`, `?since=${publishes[0]!.id}&since=${publishes[1]!.id}`]) {
      expect((await app.request(`/api/changes${query}`)).status, query).toBe(422);
    }
  });
});

describe("retention", () => {
  it("drops the publishes it does not keep, files and entries, and answers them 410 naming the full dump", async () => {
    const before = readIndex();
    const db = join(dir, "kept.sqlite");
    applyEdit(join(dir, `p${EDITS.length}.sqlite`), db, findEdit("report confidences edited"));
    const summary = publish(db, { publishes: 2, days: 0 });
    const index = readIndex();
    expect(index.publishes.map((p) => p.build)).toEqual([summary.buildId, before.publishes[0]!.build]);
    expect(index.retention).toEqual({ publishes: 2, days: 0 });
    const files = readFileSync(join(summary.buildDir, "manifest.json"), "utf8");
    for (const dropped of before.publishes.slice(1)) for (const file of dropped.files) expect(files).not.toContain(`dumps/changes/${file.name}"`);
    const expired = (JSON.parse(readFileSync(join(out, "dumps/changes/expired.json"), "utf8")) as { builds: string[] }).builds;
    // Still answerable: the current publish and the one each kept publish follows.
    const answerable = [summary.buildId, ...index.publishes.map((p) => p.previous)];
    expect(expired).toEqual(publishes.map((p) => p.id).filter((id) => !answerable.includes(id)).reverse());
    const app = createApp({ dist: out });
    const gone = await app.request(`/api/changes?since=${publishes[0]!.id}`);
    expect(gone.status).toBe(410);
    expect((await gone.json()).detail).toContain(`${BASE_URL}/dumps/spammers-latest.csv`);
    expect((await app.request(`/api/changes?since=${index.publishes.at(-1)!.previous}`)).status).toBe(200);
  });

  it("keeps every publish of the last days whatever their number", () => {
    const db = join(dir, "days.sqlite");
    applyEdit(join(dir, "kept.sqlite"), db, findEdit("report categories edited"));
    publish(db, { publishes: 1, days: 35 });
    expect(readIndex().publishes).toHaveLength(3);
  });
});

describe("a history whose files were altered", () => {
  it("starts again from what is intact, and says so", () => {
    const index = readIndex();
    const older = index.publishes[1]!;
    // Replaced, not written in place: build folders share files by hard links.
    const path = join(out, "dumps/changes", older.files[0]!.name);
    writeFileSync(`${path}.tmp`, "change,username\r\n");
    renameSync(`${path}.tmp`, path);
    const db = join(dir, "after-tamper.sqlite");
    applyEdit(join(dir, "days.sqlite"), db, findEdit("report dates edited"));
    const summary = publish(db);
    expect(summary.notices.join("\n")).toContain(`the change file ${older.files[0]!.name} of the previous publish is missing or altered`);
    const after = readIndex();
    expect(after.publishes.map((p) => p.build)).toEqual([summary.buildId, index.publishes[0]!.build]);
    const expired = (JSON.parse(readFileSync(join(out, "dumps/changes/expired.json"), "utf8")) as { builds: string[] }).builds;
    expect(expired).toContain(older.previous);
  });
});

describe("a build with another base URL", () => {
  it("names every retained change file on the new one", () => {
    const db = join(dir, "moved.sqlite");
    applyEdit(join(dir, "after-tamper.sqlite"), db, findEdit("report usernames edited"));
    buildDist({ db, out, baseUrl: "https://elsewhere.example", progress: null, readerGraceSeconds: 0 });
    const urls = readIndex().publishes.flatMap((p) => p.files.map((f) => f.url));
    expect(urls.length).toBeGreaterThan(4);
    expect(urls.filter((url) => !url.startsWith("https://elsewhere.example/dumps/changes/"))).toEqual([]);
    publish(db);
  });
});

describe("a served build missing a change file its index lists", () => {
  it("answers 500 before any byte of the merge, not a cut answer", async () => {
    const index = readIndex();
    const file = index.publishes[0]!.files.find((f) => f.name.endsWith(".csv") && !f.name.includes("-companies"))!;
    rmSync(join(out, "dumps/changes", file.name));
    const res = await createApp({ dist: out }).request(`/api/changes?since=${index.publishes[0]!.previous}`);
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  });
});

describe("the build id", () => {
  it("is the SHA-256 of the manifest up to its sealed bytes, which list every file but the change feed's", () => {
    const manifest = readFileSync(join(out, "manifest.json"));
    const { build, files } = JSON.parse(manifest.toString("utf8")) as { build: { id: string; sealed_bytes: number }; files: { path: string }[] };
    expect(build.id).toBe(publishes.at(-1)!.id);
    expect(createHash("sha256").update(manifest.subarray(0, build.sealed_bytes)).digest("hex").slice(0, 16)).toBe(build.id);
    const sealed = manifest.subarray(0, build.sealed_bytes).toString("utf8");
    const after = files.filter((f) => !sealed.includes(`"path":"${f.path}"`)).map((f) => f.path);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((path) => !isChangeFeedFile(path))).toEqual([]);
  });
});

describe("a previous publish whose dump cannot be compared with this one's", () => {
  it("starts the history again with this publish, said in one notice", () => {
    // Another header: a dump of other columns (replaced, not written in place: build folders share files by hard links).
    const path = join(out, "dumps/spammers-latest.csv");
    writeFileSync(`${path}.tmp`, "username,other\r\nalice,1\r\n");
    renameSync(`${path}.tmp`, path);
    const db = join(dir, "after-dump.sqlite");
    applyEdit(join(dir, "moved.sqlite"), db, findEdit("reports added for existing usernames"));
    const summary = publish(db);
    const notices = summary.notices.filter((notice) => notice.startsWith("the change feed starts again"));
    expect(notices).toEqual([expect.stringContaining("the previous publish's spammers dump cannot be compared with this one's (its columns differ from this build's)")]);
    const index = readIndex();
    expect(index.publishes[0]!).toMatchObject({ build: summary.buildId, previous: null, files: [] });
  });
});
