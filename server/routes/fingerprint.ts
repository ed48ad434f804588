/**
 * POST /api/fingerprint/match — which known client do these signals look like? (API reference,
 * "POST /api/fingerprint/match"; DESIGN "Fingerprint"). The rate limit is applied before this
 * handler runs (server/app.ts), so every answer here, errors included, has used up quota.
 *
 * The body is `{"signals": {key: value, …}}`: at most 20 keys, unknown keys included (they are
 * ignored by the matcher and listed back), each value a string of 1 to 255 characters (UTF-16
 * units, as the library's own bound counts them). Every bad field is named at once in a 422.
 * Keys are data: they are read as the parsed object's own entries and never written into an
 * object, so "__proto__" or "constructor" is just another unknown key.
 */
import { MAX_SIGNALS_PER_REQUEST, MAX_SIGNAL_VALUE_LENGTH, type SignalInput } from "../../core/fingerprint/index.ts";
import { describeJson, isPlainObject } from "../../core/routes/problem.ts";
import { MAX_MATCH_BODY_BYTES } from "../../core/routes/table.ts";
import { matchSignals } from "../fingerprint-matching.ts";
import { readJsonBody } from "../json-body.ts";
import { sendInvalid, sendJsonText, sendProblem, type FieldError } from "../respond.ts";
import type { RouteContext } from "./context.ts";

export { MAX_MATCH_BODY_BYTES };

export async function matchFingerprint({ request, state }: RouteContext): Promise<Response> {
  if (!state.fingerprint) {
    return sendProblem(request, 503, "This build has no fingerprint index (fingerprint/index.json); rebuild dist with the current version.");
  }
  const body = await readJsonBody(request, MAX_MATCH_BODY_BYTES);
  if (!body.ok) return body.response;
  const input = readSignals(body.value);
  if ("errors" in input) return sendInvalid(request, input.errors);
  const { matchJson, cached } = await matchSignals(state.fingerprint, input.entries, input.signals);
  // Answers depend on what was sent: a shared cache must not keep them (the server caches instead).
  return sendJsonText(request, `{"match":${matchJson},"cached":${cached}}`, { cacheControl: "no-store" });
}

type SignalsInput = { signals: SignalInput; entries: [string, string][] } | { errors: FieldError[] };

/** Checks the parsed body; the result either holds the signals or names every bad field. */
export function readSignals(body: unknown): SignalsInput {
  const invalid = (name: string, detail: string): SignalsInput => ({ errors: [{ name, in: "body", detail }] });
  if (!isPlainObject(body)) return invalid("body", "must be a JSON object with a `signals` object in it");
  if (!Object.hasOwn(body, "signals")) return invalid("signals", "is required: an object mapping signal keys to string values");
  const signals = body.signals;
  if (!isPlainObject(signals)) {
    return invalid("signals", `must be an object mapping signal keys to string values, not ${describeJson(signals)}`);
  }
  const entries = Object.entries(signals);
  const errors: FieldError[] = [];
  if (entries.length === 0) errors.push({ name: "signals", in: "body", detail: "must hold at least one signal" });
  if (entries.length > MAX_SIGNALS_PER_REQUEST) {
    errors.push({ name: "signals", in: "body", detail: `holds ${entries.length} keys; at most ${MAX_SIGNALS_PER_REQUEST} are allowed, unknown keys included` });
  }
  let valueErrors = 0;
  for (const [key, value] of entries) {
    const problem = getValueProblem(value);
    if (!problem) continue;
    // At most one error per key a valid request could have: the answer stays small whatever is sent.
    if (++valueErrors > MAX_SIGNALS_PER_REQUEST) break;
    errors.push({ name: `signals.${key}`, in: "body", detail: problem });
  }
  if (errors.length > 0) return { errors };
  return { signals: signals as SignalInput, entries: entries as [string, string][] };
}

function getValueProblem(value: unknown): string | null {
  if (typeof value !== "string") return `must be a string, not ${describeJson(value)}`;
  if (value.length === 0) return "must not be empty";
  if (value.length > MAX_SIGNAL_VALUE_LENGTH) return `is ${value.length} characters long; at most ${MAX_SIGNAL_VALUE_LENGTH} are allowed`;
  return null;
}
