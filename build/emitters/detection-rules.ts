/**
 * api/detection-rules.json — the enabled spam detection rules, for bots that poll them:
 * `{version, updated_at, count, rules: [{id, name, kind, pattern, category, weight}]}`, rules in
 * id order.
 *
 * `version` is the first 16 hex digits of the SHA-256 of the published `rules` array, so it
 * changes exactly when a published rule changes (or one is added, removed, enabled or disabled),
 * and not when only a timestamp moves. `updated_at` is the newest `updated_at` among the
 * published rules (UTC), null when no published rule has a readable one (no rules at all, say).
 * The server's strong ETag on the file lets a poller send If-None-Match and get a 304.
 *
 * Rows the schema does not promise to be clean: a rule whose category is not in the enum is
 * published with category null (a rule still detects spam without one); a rule whose updated_at
 * is unreadable is published but does not count for updated_at; a rule whose weight is not a
 * finite number is left out (a bot cannot score with it). Each case is reported.
 */
import { createHash } from "node:crypto";
import { isCategory, type Category } from "../../core/categories.ts";
import { formatInstant } from "../../core/time.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { Model } from "../model.ts";
import type { OutputFile } from "../writer.ts";
import { getRouteFile } from "../../core/routes/match.ts";

export interface PublishedRule {
  id: number;
  name: string;
  kind: string;
  pattern: string;
  category: Category | null;
  weight: number;
}

export interface PublishedRules {
  version: string;
  updatedAtMs: number | null;
  rules: PublishedRule[];
}

function isOn(flag: unknown): boolean {
  const n = Number(flag);
  return Number.isFinite(n) && n !== 0;
}

export function selectDetectionRules(model: Model): PublishedRules {
  const rules: PublishedRule[] = [];
  let updatedAtMs: number | null = null;
  for (const row of model.content.detectionRules) {
    if (!isOn(row.enabled)) continue;
    const sample = { rule_id: row.id, name: row.name };
    const weight = row.weight as unknown;
    if (typeof weight !== "number" || !Number.isFinite(weight)) {
      model.rejections.add("detection_rule_invalid_weight", { ...sample, weight: String(weight) });
      continue;
    }
    const category = row.category === null || isCategory(row.category) ? row.category : null;
    if (row.category !== null && category === null) model.rejections.add("detection_rule_unknown_category", { ...sample, category: String(row.category) });
    const updatedAt = typeof row.updated_at === "string" ? model.parseInstant(row.updated_at) : null;
    if (updatedAt === null) model.rejections.add("detection_rule_invalid_updated_at", { ...sample, updated_at: String(row.updated_at) });
    else if (updatedAtMs === null || updatedAt > updatedAtMs) updatedAtMs = updatedAt;
    rules.push({ id: row.id, name: row.name, kind: row.kind, pattern: row.pattern, category, weight });
  }
  const version = createHash("sha256").update(toJson(rules)).digest("hex").slice(0, 16);
  return { version, updatedAtMs, rules };
}

export function* emitDetectionRules({ model }: EmitContext): Generator<OutputFile> {
  const { version, updatedAtMs, rules } = selectDetectionRules(model);
  yield {
    path: getRouteFile("getDetectionRules"),
    data: toJson({ version, updated_at: updatedAtMs === null ? null : formatInstant(updatedAtMs), count: rules.length, rules }),
  };
}
