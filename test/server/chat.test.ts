/**
 * Chat protection: every status field against the fixture's SQL, the route's three outcomes
 * (found, unknown 404, malformed 422) in-process and through a real listening server, and the
 * decisions about rows the schema does not keep clean.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_KINDS, createClient, type Client } from "../helpers/client.ts";
import { FIXTURE_SQL, BASE_URL, buildFixture, type BuiltFixture } from "../helpers/fixture.ts";


/**
 * The status of every chat, by SQL: usernames normalised like messenger usernames; protected
 * when the bot is active and protected_since is an instant not after as_of.
 */
function expectedStatuses(db: BuiltFixture["sql"]) {
  const rows = db
    .prepare(
      `WITH c AS (
         SELECT *, lower(CASE WHEN substr(trim(username), 1, 1) = '@' THEN substr(trim(username), 2) ELSE trim(username) END) AS u
         FROM chats)
       SELECT u, title, bot_active <> 0 AS bot, strftime('%Y-%m-%dT%H:%M:%SZ', protected_since) AS since,
         (bot_active <> 0 AND protected_since IS NOT NULL
           AND unixepoch(protected_since) <= unixepoch((SELECT value FROM meta WHERE key = 'as_of'))) AS prot,
         messages_checked, spam_blocked
       FROM c WHERE length(u) BETWEEN 1 AND 64 AND u NOT GLOB '*[^a-z0-9_]*' ORDER BY id`,
    )
    .all() as { u: string; title: string; bot: number; since: string | null; prot: number; messages_checked: number; spam_blocked: number }[];
  return rows.map((r) => ({
    found: true,
    username: r.u,
    title: r.title,
    protected: r.prot === 1,
    bot_active: r.bot === 1,
    protected_since: r.since,
    messages_checked: r.messages_checked,
    spam_blocked: r.spam_blocked,
    url: `${BASE_URL}/chats/${r.u}`,
  }));
}

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("chat");
});
afterAll(() => fixture.cleanup());

describe.each(CLIENT_KINDS)("GET /api/chat/{username}/status (%s)", (kind) => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient(kind, fixture.dist);
  });
  afterAll(() => client.close());

  it("answers every field of every chat as the snapshot's SQL says, cached for five minutes", async () => {
    const expected = expectedStatuses(fixture.sql);
    expect(expected.map((s) => s.username)).toEqual(["traders_chat", "quiet_chat", "hostile_chat", "lapsed_chat"]);
    for (const status of expected) {
      const res = await client.fetch(`/api/chat/${status.username}/status`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      expect(res.headers.get("etag")).toMatch(/^"[\w-]{27}"$/);
      expect(await res.json()).toEqual(status);
    }
  });

  it("says protected only while the bot is active, and keeps when protection began", async () => {
    const lapsed = await (await client.fetch("/api/chat/lapsed_chat/status")).json();
    expect(lapsed).toMatchObject({ protected: false, bot_active: false, protected_since: "2025-04-30T21:00:00Z" });
    const traders = await (await client.fetch("/api/chat/traders_chat/status")).json();
    expect(traders).toMatchObject({ protected: true, bot_active: true, protected_since: "2025-11-02T08:00:00Z" });
  });

  it("reads the username like a messenger username: @, capitals and spaces around it", async () => {
    const canonical = await (await client.fetch("/api/chat/quiet_chat/status")).text();
    for (const spelling of ["@Quiet_Chat", "%40QUIET_CHAT", "%20quiet_chat%20"]) {
      const res = await client.fetch(`/api/chat/${spelling}/status`);
      expect(res.status, spelling).toBe(200);
      expect(await res.text()).toBe(canonical);
    }
  });

  it("answers an unknown chat with 404 {found:false, username}", async () => {
    const res = await client.fetch("/api/chat/@No_Such_Chat/status");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ found: false, username: "no_such_chat" });
  });

  it.each([
    ["bad%20name!", "chat username may contain only letters a-z, digits and underscores (after an optional leading @)"],
    ["x".repeat(65), "chat username is longer than 64 characters"],
    ["%40", "chat username is empty"],
  ])("answers the malformed username %s with a 422 problem naming it", async (raw, detail) => {
    const res = await client.fetch(`/api/chat/${raw}/status`);
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    const body = await res.json();
    expect(body).toMatchObject({ status: 422, title: "Unprocessable Content", errors: [{ name: "username", in: "path", detail }] });
  });

  it("answers If-None-Match with 304", async () => {
    const etag = (await client.fetch("/api/chat/traders_chat/status")).headers.get("etag")!;
    const again = await client.fetch("/api/chat/@Traders_Chat/status", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("serves each chat's badge by any spelling of its username, and the SVG not-found badge with 404 for an unknown chat", async () => {
    const file = readFileSync(join(fixture.dist, "api/chat/traders_chat/badge.svg"), "utf8");
    for (const spelling of ["traders_chat", "@Traders_Chat"]) {
      const res = await client.fetch(`/api/chat/${spelling}/badge.svg`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
      expect(await res.text()).toBe(file);
    }
    const unknown = await client.fetch("/api/chat/no_such_chat/badge.svg");
    expect(unknown.status).toBe(404);
    // An <img> shows a sentence, not a broken image: the constant badge the build wrote.
    expect(unknown.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    expect(await unknown.text()).toBe(readFileSync(join(fixture.dist, "404.svg"), "utf8"));
    expect((await client.fetch("/api/chat/bad%20name/badge.svg")).status).toBe(422);
  });
});

describe("chat rows the schema does not keep clean", () => {
  let odd: BuiltFixture;
  const status = (username: string) => JSON.parse(readFileSync(join(odd.dist, `api/chat/${username}/status.json`), "utf8"));
  beforeAll(() => {
    odd = buildFixture(
      "chat-odd",
      `${FIXTURE_SQL}
      INSERT INTO chats (id, username, title, members, bot_active, protected_since, messages_checked, spam_blocked) VALUES
        (20, '@TRADERS_CHAT', 'A second traders chat', 1, 1, '2020-01-01T00:00:00Z', 1, 1),
        (21, 'bad name!', 'Bad', 1, 1, NULL, 0, 0),
        (22, 'future_chat', 'Future', 1, 1, '2026-03-11T10:00:01Z', 0, 0),
        (23, 'edge_chat', 'Edge', 1, 1, '2026-03-11T12:00:00+02:00', 0, 0),
        (24, 'fresh_bot', 'Fresh', 1, 1, NULL, 0, 0),
        (25, 'unsure_chat', 'Unsure', 1, 1, 'soon', 10, 1),
        (26, 'odd_stats', 'Odd', 1, 1, '2026-01-01T00:00:00Z', 'many', -3);`,
    );
  });
  afterAll(() => odd.cleanup());

  it("keeps the first of two chats whose usernames normalise alike, and reports the other and the invalid one", () => {
    expect(status("traders_chat").title).toBe("Traders chat");
    const reasons: Record<string, { count: number; samples: Record<string, unknown>[] }> = Object.fromEntries(odd.summary.rejections.map((r) => [r.reason, r]));
    expect(reasons.content_duplicate_path!.samples).toContainEqual({ table: "chats", id: 20, username: "@TRADERS_CHAT" });
    expect(reasons.content_invalid_path!.samples).toContainEqual({ table: "chats", id: 21, username: "bad name!" });
    expect(reasons.chat_invalid_protected_since).toMatchObject({ count: 1, samples: [{ chat_id: 25, username: "unsure_chat", protected_since: "soon" }] });
    expect(reasons.chat_invalid_statistics).toMatchObject({
      count: 2,
      samples: [
        { chat_id: 26, username: "odd_stats", field: "messages_checked", value: "many" },
        { chat_id: 26, username: "odd_stats", field: "spam_blocked", value: "-3" },
      ],
    });
  });

  it("counts protection from as_of itself, not from a moment after it", () => {
    expect(status("edge_chat")).toMatchObject({ protected: true, protected_since: "2026-03-11T10:00:00Z" });
    expect(status("future_chat")).toMatchObject({ protected: false, bot_active: true, protected_since: "2026-03-11T10:00:01Z" });
  });

  it("does not call a bot protection before it has a start, and publishes unreadable values as null", () => {
    expect(status("fresh_bot")).toMatchObject({ protected: false, bot_active: true, protected_since: null });
    expect(status("unsure_chat")).toMatchObject({ protected: false, bot_active: true, protected_since: null, messages_checked: 10 });
    expect(status("odd_stats")).toMatchObject({ protected: true, messages_checked: null, spam_blocked: null });
  });
});
