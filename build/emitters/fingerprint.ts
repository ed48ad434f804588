/**
 * fingerprint/index.json — the index the server's POST /api/fingerprint/match loads (built and
 * validated by the model: build/model/fingerprints.ts) — and fingerprint/profiles.json — the
 * public profiles, by id (API reference, "Fingerprint profile"). Only public profiles reach
 * either file, and confirmation counts never leave the build.
 */
import { getRouteFile } from "../../core/routes/match.ts";
import { FINGERPRINT_INDEX_FILE } from "../../core/routes/table.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";

export function* emitFingerprintIndex({ model }: EmitContext): Generator<OutputFile> {
  const index = model.fingerprints;
  yield { path: FINGERPRINT_INDEX_FILE, data: toJson(index) };
  const byId = [...index.profiles].sort((a, b) => a.id - b.id);
  yield { path: getRouteFile("getFingerprintProfiles"), data: toJson({ profiles: byId }) };
}
