/**
 * api/detection-rules.json — the enabled spam detection rules, for bots that poll them:
 * `{version, updated_at, count, rules: [{id, name, kind, pattern, category, weight}]}`, rules in
 * id order (selected and versioned by the model: build/model/detection-rules.ts). The server's
 * strong ETag on the file lets a poller send If-None-Match and get a 304.
 */
import { getRouteFile } from "../../core/routes/match.ts";
import { formatInstant } from "../../core/time.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";

export function* emitDetectionRules({ model }: EmitContext): Generator<OutputFile> {
  const { version, updatedAtMs, rules } = model.detectionRules;
  yield {
    path: getRouteFile("getDetectionRules"),
    data: toJson({ version, updated_at: updatedAtMs === null ? null : formatInstant(updatedAtMs), count: rules.length, rules }),
  };
}
