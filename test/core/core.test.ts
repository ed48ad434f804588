import { describe, expect, it } from "vitest";
import { CATEGORIES, getCategoryLabel, rankCategories } from "../../core/categories.ts";
import { compareNames } from "../../core/order.ts";
import { compareSpammers } from "../../core/ranking.ts";
import { TopList } from "../../core/top-list.ts";
import Database from "better-sqlite3";
import { readInstant } from "../../build/snapshot/report-sql.ts";
import { formatDate, formatInstant } from "../../core/time.ts";
import { formatTrend, getTrendDirection, getWeekTrend } from "../../core/trend.ts";
import { describeUsernameRejection, getUsernameRejection, normalizeUsername } from "../../core/username.ts";
import { checkBaseUrl, createUrls, getAvatarUrl } from "../../core/urls.ts";
import { escapeMarkup, removeControlCharacters } from "../../core/escape.ts";
import { slugify } from "../../core/transliterate.ts";

describe("usernames", () => {
  it.each([
    ["Spam_King", "spam_king", null],
    ["@spam_king", "spam_king", null],
    ["  @Spam_King  ", "spam_king", null],
    ["@@double", "@double", "invalid_characters"],
    ["", "", "empty"],
    ["@", "", "empty"],
    ["bad name", "bad name", "invalid_characters"],
    ["имя", "имя", "invalid_characters"],
    ["a".repeat(64), "a".repeat(64), null],
    ["a".repeat(65), "a".repeat(65), "too_long"],
    ["user.name", "user.name", "invalid_characters"],
  ])("%j normalises to %j (%s)", (raw, normalized, rejection) => {
    expect(normalizeUsername(raw)).toBe(normalized);
    expect(getUsernameRejection(normalizeUsername(raw))).toBe(rejection);
  });

  it.each([
    ["empty", "is empty"],
    ["too_long", "is longer than 64 characters"],
    ["invalid_characters", "may contain only letters a-z, digits and underscores (after an optional leading @)"],
  ] as const)("describes the rejection %s as %j, for every route that refuses a username", (rejection, detail) => {
    expect(describeUsernameRejection(rejection)).toBe(detail);
  });
});

describe("timestamps", () => {
  const db = new Database(":memory:");
  const read = (text: string) => {
    const seconds = readInstant(db, text);
    return seconds === null ? null : formatInstant(seconds * 1000);
  };

  it.each([
    ["2026-03-05T00:00:00Z", "2026-03-05T00:00:00Z"],
    ["2026-03-05T02:30:00+03:00", "2026-03-04T23:30:00Z"],
    ["2026-03-04T21:30:00-03:00", "2026-03-05T00:30:00Z"],
    ["2026-03-05 00:00:00", "2026-03-05T00:00:00Z"],
    ["2026-03-05T00:00:00.999Z", "2026-03-05T00:00:00Z"],
    ["2026-03-05", "2026-03-05T00:00:00Z"],
    ["2024-02-29T12:00:00Z", "2024-02-29T12:00:00Z"],
    ["2026-04-30T23:00:00-05:00", "2026-05-01T04:00:00Z"],
    ["2026-01-31T01:00:00+03:00", "2026-01-30T22:00:00Z"],
    ["2026-12-31T23:59:59Z", "2026-12-31T23:59:59Z"],
    ["2026-02-28", "2026-02-28T00:00:00Z"],
  ])("reads %s as %s in UTC", (text, utc) => {
    expect(read(text)).toBe(utc);
  });

  it.each(["yesterday", "now", "2460000.5", "2026-02-30T00:00:00Z", "2026-02-29", "2026-04-31", "2026-06-31T10:00:00Z", "2026-13-01", "2026-00-10", "2026-01-32", "2026-01-00", "2026-03-05T25:00:00Z", "2026-3-5", ""])(
    "refuses %j (never the clock, never a rolled-over date)",
    (text) => {
      expect(read(text)).toBeNull();
    },
  );

  it("formats the UTC calendar day", () => {
    expect(formatDate(readInstant(db, "2026-03-05T01:00:00+03:00")! * 1000)).toBe("2026-03-04");
  });
});

describe("instant formatting", () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  it.each([
    [0, "1970-01-01T00:00:00Z"],
    [-1, "1969-12-31T23:59:59Z"],
    [951_782_400_000, "2000-02-29T00:00:00Z"],
    [4_107_542_399_999, "2100-02-28T23:59:59Z"],
    [1_773_223_199_999, "2026-03-11T09:59:59Z"],
    [253_402_300_799_999, "9999-12-31T23:59:59Z"],
  ])("formats %d as %s, truncating milliseconds", (ms, text) => {
    expect(formatInstant(ms)).toBe(text);
    expect(formatDate(ms)).toBe(text.slice(0, 10));
  });

  it("agrees with Date#toISOString across four centuries, leap days and negative times", () => {
    let seed = 12345;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor((next() * 4 - 1) * 4_102_444_800_000);
      expect(formatInstant(ms)).toBe(iso(ms).slice(0, 19) + "Z");
      expect(formatDate(ms)).toBe(iso(ms).slice(0, 10));
    }
  });

  it("falls back to Date outside years 0000-9999 and throws on nonsense", () => {
    expect(formatDate(253_402_300_800_000)).toBe(iso(253_402_300_800_000).slice(0, 10));
    expect(() => formatInstant(Number.NaN)).toThrow(RangeError);
  });
});

describe("trends", () => {
  it.each([
    [3, 2, 50],
    [0, 3, -100],
    [5, 0, 100],
    [0, 0, 0],
    [1, 3, -66.7],
    [2, 3, -33.3],
    [17, 16, 6.3],
    [2001, 2000, 0.1],
    [1999, 2000, -0.1],
    [7, 7, 0],
  ])("cur %i, prev %i gives %d", (cur, prev, trend) => {
    expect(getWeekTrend(cur, prev)).toBe(trend);
  });

  it.each([
    [12.5, "+13%", "up"],
    [-4.5, "-5%", "down"],
    [0.4, "+0%", "flat"],
    [-0.4, "+0%", "flat"],
    [0, "+0%", "flat"],
    [-100, "-100%", "down"],
    [0.5, "+1%", "up"],
  ])("week_trend %d shows as %s, %s", (weekTrend, text, direction) => {
    expect(formatTrend(weekTrend)).toBe(text);
    expect(getTrendDirection(weekTrend)).toBe(direction);
  });
});

describe("orders", () => {
  it("compares names lower-cased by code point, not by locale", () => {
    const names = ["Émile", "zed", "Alpha", "бета", "beta", "😀 emoji", "\uffff"];
    expect([...names].sort(compareNames)).toEqual(["Alpha", "beta", "zed", "Émile", "бета", "\uffff", "😀 emoji"]);
  });

  it("ranks spammers by reports, then last seen, then username", () => {
    const a = { username: "b", reportsCount: 2, lastSeenMs: 1 };
    const b = { username: "a", reportsCount: 2, lastSeenMs: 1 };
    const c = { username: "c", reportsCount: 2, lastSeenMs: 5 };
    const d = { username: "d", reportsCount: 3, lastSeenMs: 0 };
    expect([a, b, c, d].sort(compareSpammers).map((s) => s.username)).toEqual(["d", "c", "a", "b"]);
  });

  it("keeps the best k items of a stream in order", () => {
    const top = new TopList<number>(3, (x, y) => y - x);
    for (const n of [5, 1, 9, 3, 9, 7, 2]) top.offer(n);
    expect(top.items).toEqual([9, 9, 7]);
    expect(top.offered).toBe(7);
  });
});

describe("categories", () => {
  it("ranks by frequency with ties in enum order", () => {
    const counts = new Array(CATEGORIES.length).fill(0);
    counts[CATEGORIES.indexOf("crypto")] = 2;
    counts[CATEGORIES.indexOf("gambling")] = 2;
    counts[CATEGORIES.indexOf("other")] = 3;
    expect(rankCategories(counts)).toEqual(["other", "gambling", "crypto"]);
  });

  it("has a label for every category", () => {
    for (const c of CATEGORIES) expect(getCategoryLabel(c)).toMatch(/^[A-Z]/);
  });
});

describe("the markup escaper", () => {
  it.each([
    ["<b>\"Q\" & 'x'</b>", "&lt;b&gt;&quot;Q&quot; &amp; &#39;x&#39;&lt;/b&gt;"],
    ["bell\u0007 escape\u001b delete\u007f", "bell escape delete"],
    ["C1 \u0080next\u0085line\u009f", "C1 nextline"],
    ["tab\tnewline\ncr\r", "tab\tnewline\ncr\r"],
    ["ü é Ω ш \u202e 🙂", "ü é Ω ш \u202e 🙂"],
    ["not a char \uffff\ufffe", "not a char "],
  ])("escapes %j as %j", (text, escaped) => {
    expect(escapeMarkup(text)).toBe(escaped);
  });

  it("drops the same control characters from plain text without escaping the rest", () => {
    expect(removeControlCharacters("=a\u0001&\u0090<")).toBe("=a&<");
  });
});

describe("avatars", () => {
  const urls = createUrls("https://api.example.org");
  it.each([
    ["https://cdn.example.net/a.png", "https://cdn.example.net/a.png"],
    ["  HTTP://CDN.example.net/a b.png ", "http://cdn.example.net/a%20b.png"],
    ["/avatars/ivan.png", "https://api.example.org/avatars/ivan.svg"],
    ["javascript:alert(1)", "https://api.example.org/avatars/ivan.svg"],
    ["https://", "https://api.example.org/avatars/ivan.svg"],
    [null, "https://api.example.org/avatars/ivan.svg"],
  ])("uses %j as %j", (avatar, expected) => {
    expect(getAvatarUrl(avatar, "ivan", urls)).toBe(expected);
  });
});

describe("urls", () => {
  it("builds absolute URLs from the base URL, encoding path segments", () => {
    const urls = createUrls("https://api.example.org/");
    expect(urls.companyPage("alpha")).toBe("https://api.example.org/company/alpha");
    expect(urls.badge("a b")).toBe("https://api.example.org/api/badge/a%20b.svg");
  });

  it.each([
    ["https://api.example.org", null],
    ["http://localhost:3000/sub", null],
    ["ftp://x", "must use http or https"],
    ["/relative", "must be an absolute URL such as https://api.example.org"],
    ["https://x?y=1", "must not have a query or fragment"],
  ])("base URL %j: %j", (value, problem) => {
    expect(checkBaseUrl(value)).toBe(problem);
  });
});

describe("slugs", () => {
  it.each([
    ["Бета Партнёры", "beta-partnery"],
    ["<script>alert(1)</script>", "script-alert-1-script"],
    ["Émile Ads", "emile-ads"],
  ])("%j becomes %j", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});
