/**
 * The bulk check's reading of a request and its answer (core/bulk-check.ts): table-driven, bad
 * bodies included; the answer in request order whatever the identifiers look like.
 */
import { describe, expect, it } from "vitest";
import { BULK_CHECK_LIMITS, formatBulkCheck, listBulkUsernames, readBulkCheckRequest } from "../../core/bulk-check.ts";
import { explainUsernameRejection, normalizeUsername } from "../../core/username.ts";

describe("reading a bulk check", () => {
  const { maxUsernames } = BULK_CHECK_LIMITS;

  it.each([
    [null, 422, "body", "must be a JSON object"],
    [[], 422, "body", "must be a JSON object"],
    [{}, 422, "usernames", "is required"],
    [{ usernames: "admin" }, 422, "usernames", "not a string"],
    [{ usernames: {} }, 422, "usernames", "not an object"],
    [{ usernames: [] }, 422, "usernames", "at least one"],
    [{ usernames: ["a", 1] }, 422, "usernames[1]", "must be a string, not a number"],
    [{ usernames: ["a", null, ["b"]] }, 422, "usernames[1]", "not null"],
    [{ usernames: Array(maxUsernames + 1).fill("a") }, 413, "usernames", `holds ${maxUsernames + 1} usernames; at most ${maxUsernames}`],
  ])("refuses %j with %i naming %s", (body, status, name, detail) => {
    const read = readBulkCheckRequest(body);
    expect(read).toMatchObject({ status });
    expect("errors" in read && read.errors[0]).toMatchObject({ name, in: "body" });
    expect("errors" in read && read.errors[0]!.detail).toContain(detail);
  });

  it("names at most 20 bad items, however many there are", () => {
    const read = readBulkCheckRequest({ usernames: Array(maxUsernames).fill(0) });
    expect("errors" in read && read.errors).toHaveLength(20);
  });

  it("takes exactly the limit, ignores other keys, and reads each identifier like the GET route", () => {
    expect(readBulkCheckRequest({ usernames: Array(maxUsernames).fill("a"), other: 1 })).toMatchObject({ items: expect.any(Array) });
    const read = readBulkCheckRequest({ usernames: ["@Spam_King", "bad name!", "spam_king", ""] });
    expect(read).toEqual({
      items: [
        { identifier: "@Spam_King", username: "spam_king" },
        { identifier: "bad name!", rejection: explainUsernameRejection(normalizeUsername("bad name!")) },
        { identifier: "spam_king", username: "spam_king" },
        { identifier: "", rejection: "username is empty" },
      ],
    });
    expect("items" in read && listBulkUsernames(read.items)).toEqual(["spam_king"]);
  });
});

describe("answering a bulk check", () => {
  it("answers in the order sent, integer-like identifiers and duplicates included, each result as given", () => {
    const read = readBulkCheckRequest({ usernames: ["zeta", "123", "@ZETA", "7", "no such!"] });
    if (!("items" in read)) throw new Error("unreadable");
    const files: Record<string, string> = { zeta: '{"found":true,"username":"zeta"}' };
    const text = formatBulkCheck(read.items, (username) => files[username] ?? null);
    expect(text).toBe(
      '{"results":[' +
        '{"identifier":"zeta","result":{"found":true,"username":"zeta"}},' +
        '{"identifier":"123","result":{"found":false,"username":"123","reports_count":0}},' +
        '{"identifier":"@ZETA","result":{"found":true,"username":"zeta"}},' +
        '{"identifier":"7","result":{"found":false,"username":"7","reports_count":0}},' +
        '{"identifier":"no such!","error":{"status":422,"title":"Unprocessable Content","detail":"username may contain only letters a-z, digits and underscores (after an optional leading @)"}}' +
        "]}",
    );
    const parsed = JSON.parse(text) as { results: { identifier: string }[] };
    expect(parsed.results.map((r) => r.identifier)).toEqual(["zeta", "123", "@ZETA", "7", "no such!"]);
  });

  it("echoes hostile identifiers as JSON strings, never as markup or broken JSON", () => {
    const identifiers = ['</script><b>"x"</b>', "\u0000\u2028", "\ud800"];
    const read = readBulkCheckRequest({ usernames: identifiers });
    if (!("items" in read)) throw new Error("unreadable");
    const parsed = JSON.parse(formatBulkCheck(read.items, () => null)) as { results: { identifier: string }[] };
    expect(parsed.results.map((r) => r.identifier)).toEqual(identifiers);
  });
});
