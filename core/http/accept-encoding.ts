/**
 * Content negotiation for the precompressed files the build writes beside a file (`X.br`,
 * `X.gz`): which one to send for an `Accept-Encoding` header (RFC 9110 §12.5.3).
 *
 * The client's q-values decide; between equal ones the order of ENCODINGS (brotli first). A
 * coding the client does not name is not sent (`*` names every one), and `q=0` refuses it. No
 * header at all means "anything" in the RFC, but a client that sends none is usually a script
 * that would not decode it, so it gets the file as it is — what nginx's gzip_static does too.
 */

import { ENCODINGS, type Encoding } from "../routes/variants.ts";

/** `available`: the codings a file has (a set, or a map keyed by coding, as the file store keeps them). */
export function pickEncoding(header: string | null | undefined, available: { has(encoding: Encoding): boolean; readonly size: number }): Encoding | null {
  if (!header || available.size === 0) return null;
  const weights = readWeights(header);
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of ENCODINGS) {
    if (!available.has(encoding)) continue;
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Coding name (lower case) → q-value; a malformed q counts as 0 (refused), never as a preference. */
function readWeights(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(",")) {
    const [name, ...params] = item.split(";").map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      const q = /^q\s*=\s*([01](?:\.\d{0,3})?)$/.exec(param);
      if (param.startsWith("q")) weight = q ? Math.min(1, Number(q[1])) : 0;
    }
    // `x-gzip` is the same coding by an older name (RFC 9110 §8.4.1.3).
    weights.set(name === "x-gzip" ? "gzip" : name, weight);
  }
  return weights;
}
