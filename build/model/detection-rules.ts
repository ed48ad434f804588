/**
 * The enabled spam detection rules as api/detection-rules.json publishes them, in id order.
 *
 * `version` is the first 16 hex digits of the SHA-256 of the published `rules` array, so it
 * changes exactly when a published rule changes (or one is added, removed, enabled or disabled),
 * and not when only a timestamp moves. `updatedAtMs` is the newest `updated_at` among the
 * published rules, null when no published rule has a readable one (no rules at all, say).
 *
 * Rows the schema does not promise to be clean: a rule whose category is not in the enum is
 * published with category null (a rule still detects spam without one); a rule whose updated_at
 * is unreadable is published but does not count for updated_at; a rule whose weight is not a
 * finite number is left out (a bot cannot score with it). Each case is reported.
 */
import { createHash } from "node:crypto";
import { isCategory } from "../../core/categories.ts";
import type { DetectionRuleRow } from "../snapshot/content.ts";
import type { InstantParser } from "./content.ts";
import { isOn } from "./loose-values.ts";
import { toSampleText, type Rejections } from "./rejections.ts";
import type { PublishedRule, PublishedRules } from "./types.ts";

export function selectDetectionRules(rows: readonly DetectionRuleRow[], parseInstant: InstantParser, rejections: Rejections): PublishedRules {
  const rules: PublishedRule[] = [];
  let updatedAtMs: number | null = null;
  for (const row of rows) {
    if (!isOn(row.enabled)) continue;
    const sample = { rule_id: row.id, name: toSampleText(row.name) };
    const weight = row.weight as unknown;
    if (typeof weight !== "number" || !Number.isFinite(weight)) {
      rejections.add("detection_rule_invalid_weight", { ...sample, weight: toSampleText(weight) });
      continue;
    }
    const category = row.category === null || isCategory(row.category) ? row.category : null;
    if (row.category !== null && category === null) rejections.add("detection_rule_unknown_category", { ...sample, category: toSampleText(row.category) });
    const updatedAt = typeof row.updated_at === "string" ? parseInstant(row.updated_at) : null;
    if (updatedAt === null) rejections.add("detection_rule_invalid_updated_at", { ...sample, updated_at: toSampleText(row.updated_at) });
    else if (updatedAtMs === null || updatedAt > updatedAtMs) updatedAtMs = updatedAt;
    rules.push({ id: row.id, name: row.name, kind: row.kind, pattern: row.pattern, category, weight });
  }
  const version = createHash("sha256").update(JSON.stringify(rules)).digest("hex").slice(0, 16);
  return { version, updatedAtMs, rules };
}
