/**
 * Hostile inputs for the property-based tests (fast-check arbitraries): path segments, query
 * strings and request bodies of the kinds attackers and broken clients send. Nothing here puts a
 * raw space, CR or LF into a request target: those would split the request line, and what is
 * tested is the server's reading of a request, not the test's own framing.
 */
import fc from "fast-check";

/** Markup a page or an SVG must never carry unescaped, whatever is sent to it. */
export const MARKUP = ["<script>alert(1)</script>", '"><svg onload=alert(1)>', "<img src=x onerror=alert(1)>"] as const;

/** Query names no route takes, with the ones that trip up objects used as maps. */
export const HOSTILE_NAMES = ["__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "v", "LIMIT", "Q", "limit[]", "", "a".repeat(300)];

const HOSTILE_SEGMENTS = [
  "..", ".", "%2e%2e", "%2E%2e", "..%2f..%2f..%2fetc%2fpasswd", "%2f", "%5c", "\\..\\..", "%00", "%ZZ", "%", "%E0%A4%A", "%C0%AF", "%ED%A0%80", "%FF%FE",
  "etc", "passwd", "secret.txt", "secret.json", ".dist-builds", "_headers", "_redirects", "_static-host", "manifest.json", "package.json",
  "@", "@Spam_King", "spam_king", "SPAM_KING", "alpha-leads", "Alpha%20Leads", "crypto", "badge", "banner-dark", "1", "0", "-1", "01", "99999999999",
  ";", "~", "%20", "%2520", "a.json", "a.svg.json", ...MARKUP.map(encodeURIComponent),
];

/** One path segment: a hostile one, a plain one, any Unicode percent-encoded, or a very long one. */
export const segmentArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Za-z0-9._~@-]{1,24}$/) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 4000 }).map((n) => "a".repeat(n)) },
);

const VALUES = ["", "0", "-1", "1", "2", "50", "200", "201", "1e3", "0x10", "%205", "+5", "9".repeat(40), "crypto", "CRYPTO", "nope", "spam_king", "@Spam_King", "al", "a", "%ZZ", "%00", "%FF", "..", ...MARKUP.map(encodeURIComponent)];

const valueArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }).map(encodeURIComponent) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 6000 }).map((n) => "q".repeat(n)) },
);

/**
 * A query string (`""` or `?a=1&b=2`) of parameters named from `names` or at random, repeats
 * allowed. `encode` percent-encodes each name, so that a name reads back as exactly itself.
 */
export function queryArb(names: readonly string[], options: { encode?: boolean } = {}): fc.Arbitrary<string> {
  const name = options.encode ? fc.constantFrom(...names).map(encodeURIComponent) : fc.oneof(fc.constantFrom(...names), fc.stringMatching(/^[a-z_]{1,8}$/));
  const pair = fc.tuple(name, fc.option(valueArb, { nil: undefined })).map(([n, v]) => (v === undefined ? n : `${n}=${v}`));
  return fc.array(pair, { maxLength: 6 }).map((pairs) => (pairs.length === 0 ? "" : `?${pairs.join("&")}`));
}

const text = (s: string) => new TextEncoder().encode(s);

/** A request body: nested deep, over the 16 KiB bound, of the wrong shape, or bytes that are not UTF-8. */
export const bodyArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.integer({ min: 1, max: 20_000 }).map((n) => text(`{"signals":${"[".repeat(n)}${"]".repeat(n)}}`)),
  fc.integer({ min: 1, max: 12_000 }).map((n) => text(`${'{"a":'.repeat(n)}1${"}".repeat(n)}`)),
  fc.integer({ min: 16 * 1024 - 32, max: 40_000 }).map((n) => text(`{"signals":{"ja4":"${"x".repeat(n)}"}}`)),
  fc.json().map(text),
  fc.anything().map((value) => text(JSON.stringify({ signals: value }) ?? "null")),
  fc.dictionary(fc.constantFrom("__proto__", "constructor", "ja4", "toString", ...MARKUP), fc.oneof(fc.string(), fc.integer())).map((signals) => text(`{"signals":${JSON.stringify(signals)}}`)),
  fc.uint8Array({ minLength: 1, maxLength: 300 }),
  fc.constant(Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
);
