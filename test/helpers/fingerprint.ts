/**
 * The fingerprint fixture (test/fixtures/snapshot.sql plus test/fixtures/fingerprints.sql) and
 * small helpers for posting to POST /api/fingerprint/match and reading its answers.
 */
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import {
  SIGNAL_WEIGHTS,
  createFingerprintIndex,
  createMatcher,
  type FingerprintProfileWithSignals,
  type ProfileKind,
  type SignalWeights,
  type TrustLevel,
} from "../../core/fingerprint/index.ts";
import { buildFixture, type BuiltFixture } from "./fixture.ts";
import type { Client } from "./client.ts";

export const MATCH_PATH = "/api/fingerprint/match";

export const FINGERPRINT_FIXTURE_SQL = ["snapshot.sql", "fingerprints.sql"]
  .map((name) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8"))
  .join("\n");

export function buildFingerprintFixture(label: string): BuiltFixture {
  return buildFixture(label, FINGERPRINT_FIXTURE_SQL);
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs `body` (a value is sent as JSON, a string as it is) with a JSON content type unless `headers` say otherwise. */
export async function postMatch(client: Client, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await client.fetch(MATCH_PATH, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** A body sent as a stream: no Content-Length, so only counting the bytes can bound it. */
export function streamBody(bytes: number, chunk = 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const size = Math.min(chunk, bytes - sent);
      controller.enqueue(new Uint8Array(size).fill(0x20));
      sent += size;
    },
  });
}

/** The canonical problem+json shape (DESIGN "Errors"), with no caching. */
export function expectProblem(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
  expect(answer.headers.get("cache-control")).toBe("no-store");
  expect(answer.body).toMatchObject({ type: "about:blank", status, title: expect.any(String), detail: expect.any(String) });
}

/** The profile view of the fixture's boundary profile (its OS family lower-cased by the build). */
export const BOUNDARY_PROFILE = {
  id: 1, label: "Boundary browser", kind: "browser", name: "Boundary", os_family: "windows", trust_level: "canonical", observations: 100,
};

/** The boundary profile's signals (test/fixtures/fingerprints.sql). */
export const BOUNDARY_SIGNALS: Readonly<Record<string, string>> = {
  ja4: "fx-ja4", ja4_t: "fx-ja4t", webgl_renderer: "fx-gl", akamai_h2: "fx-h2", canvas_geom: "fx-cg",
};

let nextId = 1;

/** A profile for matcher tests: a browser, canonical, unless told otherwise; ids count up from 1. */
export function createTestProfile(
  signals: Record<string, string | string[]>,
  options: { id?: number; kind?: ProfileKind; trust?: TrustLevel; observations?: number; confirmations?: number } = {},
): FingerprintProfileWithSignals {
  const id = options.id ?? nextId++;
  return {
    id,
    label: `Profile ${id}`,
    kind: options.kind ?? "browser",
    name: `P${id}`,
    os_family: "windows",
    trust_level: options.trust ?? "canonical",
    observations: options.observations ?? 0,
    confirmations: options.confirmations ?? 0,
    signals: Object.entries(signals).flatMap(([key, values]) => [values].flat().map((value) => ({ key, value }))),
  };
}

/** A matcher over `profiles`, with the default weights except those given. */
export function createTestMatcher(profiles: FingerprintProfileWithSignals[], weights?: Partial<SignalWeights>) {
  return createMatcher(createFingerprintIndex(profiles, { weights: { ...SIGNAL_WEIGHTS, ...weights } }));
}
