/**
 * GET /api/detection-rules: the enabled rules as the snapshot's SQL gives them, a version that
 * moves exactly when the published rules do, and cheap polling with If-None-Match.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInMemory } from "../../build/build.ts";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, createSnapshot, makeTempDir, type BuiltFixture } from "../helpers/fixture.ts";

const ENUM = "gambling,crypto,nutra,traffic,affiliate,job,adult,forex,tools,payments,infobiz,other";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("rules");
});
afterAll(() => fixture.cleanup());

/** The published list, by SQL: enabled rules in id order, the newest updated_at in UTC. */
function expectedRules(db: BuiltFixture["sql"]) {
  const rules = db
    .prepare(
      `SELECT id, name, kind, pattern, CASE WHEN instr(',${ENUM},', ',' || category || ',') > 0 THEN category END AS category, weight
       FROM detection_rules WHERE enabled <> 0 ORDER BY id`,
    )
    .all();
  const updatedAt = db.prepare("SELECT strftime('%Y-%m-%dT%H:%M:%SZ', max(unixepoch(updated_at)), 'unixepoch') FROM detection_rules WHERE enabled <> 0").pluck().get();
  return { updated_at: updatedAt, count: rules.length, rules };
}

describe.each(CLIENT_KINDS)("GET /api/detection-rules (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  it("lists the enabled rules as the snapshot's SQL says, with a short content hash for a version", async () => {
    const res = await client.fetch("/api/detection-rules");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const body = await res.json();
    expect(body).toEqual({ version: expect.stringMatching(/^[0-9a-f]{16}$/), ...expectedRules(fixture.sql) });
    expect(body.updated_at).toBe("2026-03-10T08:30:00Z");
    expect(body.rules.map((r: { id: number }) => r.id)).toEqual([1, 2, 4]);
    expect(body.rules[2].name).toBe('Hostile <rule> & "x"');
  });

  it("answers a poll with the current ETag with 304 and no body", async () => {
    const first = await client.fetch("/api/detection-rules");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const poll = await client.fetch("/api/detection-rules", { headers: { "if-none-match": etag } });
    expect(poll.status).toBe(304);
    expect(await poll.text()).toBe("");
    const stale = await client.fetch("/api/detection-rules", { headers: { "if-none-match": '"an-older-version"' } });
    expect(stale.status).toBe(200);
  });
});

describe("the rules' version", () => {
  const dir = makeTempDir("rules-versions");
  /** The published rules of the fixture with `change` applied after it. */
  const publish = (name: string, change = "") => {
    const db = createSnapshot(dir, `${FIXTURE_SQL}\n${change}`, `${name}.sqlite`);
    const { files, summary } = buildInMemory({ db, baseUrl: BASE_URL });
    return {
      rules: JSON.parse(files.get("api/detection-rules.json")!.toString("utf8")),
      report: { rejections: summary.rejections },
    };
  };
  let base: ReturnType<typeof publish>;
  beforeAll(() => {
    base = publish("base");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is the same for two builds of the same snapshot", () => {
    expect(publish("again").rules).toEqual(base.rules);
  });

  it.each([
    ["a pattern changes", "UPDATE detection_rules SET pattern = 'free giveaway' WHERE id = 1"],
    ["a weight changes", "UPDATE detection_rules SET weight = 1.6 WHERE id = 1"],
    ["a rule is disabled", "UPDATE detection_rules SET enabled = 0 WHERE id = 2"],
    ["a rule is enabled", "UPDATE detection_rules SET enabled = 1 WHERE id = 3"],
    ["a rule is added", "INSERT INTO detection_rules (id, name, kind, pattern, category, weight, enabled, updated_at) VALUES (9, 'New', 'keyword', 'new', NULL, 1, 1, '2026-01-01T00:00:00Z')"],
  ])("changes when %s", (_, change) => {
    expect(publish(`change-${change.length}-${change.slice(0, 6)}`, change).rules.version).not.toBe(base.rules.version);
  });

  it("stays when only a timestamp moves, while updated_at follows it", () => {
    const touched = publish("touched", "UPDATE detection_rules SET updated_at = '2026-03-11T09:59:00+01:00' WHERE id = 1").rules;
    expect(touched.version).toBe(base.rules.version);
    expect(touched.updated_at).toBe("2026-03-11T08:59:00Z");
  });

  it("is the hash of an empty list, with updated_at null, when no rule is enabled", () => {
    const none = publish("none", "UPDATE detection_rules SET enabled = 0").rules;
    expect(none).toEqual({ version: expect.stringMatching(/^[0-9a-f]{16}$/), updated_at: null, count: 0, rules: [] });
    expect(publish("none-again", "DELETE FROM detection_rules").rules.version).toBe(none.version);
  });

  it("publishes an unknown category as null and leaves an unreadable time out of updated_at, reporting both", () => {
    const odd = publish(
      "odd",
      `INSERT INTO detection_rules (id, name, kind, pattern, category, weight, enabled, updated_at) VALUES
         (10, 'Odd category', 'keyword', 'odd', 'spamz', 1, 1, '2026-01-01T00:00:00Z'),
         (11, 'Odd time', 'keyword', 'when', 'crypto', 1, 1, 'soon'),
         (12, 'Odd weight', 'keyword', 'heavy', 'crypto', 'heavy', 1, '2026-03-11T09:00:00Z');`,
    );
    expect(odd.rules.rules.slice(-2)).toEqual([
      { id: 10, name: "Odd category", kind: "keyword", pattern: "odd", category: null, weight: 1 },
      { id: 11, name: "Odd time", kind: "keyword", pattern: "when", category: "crypto", weight: 1 },
    ]);
    expect(odd.rules.updated_at).toBe("2026-03-10T08:30:00Z");
    const reasons = Object.fromEntries(odd.report.rejections.map((r: { reason: string }) => [r.reason, r]));
    expect(reasons.detection_rule_unknown_category).toMatchObject({ count: 1, samples: [{ rule_id: 10, name: "Odd category", category: "spamz" }] });
    expect(reasons.detection_rule_invalid_updated_at).toMatchObject({ count: 1, samples: [{ rule_id: 11, name: "Odd time", updated_at: "soon" }] });
    expect(reasons.detection_rule_invalid_weight).toMatchObject({ count: 1, samples: [{ rule_id: 12, name: "Odd weight", weight: "heavy" }] });
  });
});
