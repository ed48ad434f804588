/**
 * What the build refused, by reason, with a few samples each. DESIGN: invalid usernames are
 * rejected loudly — counted and shown in the build report, never silently dropped.
 */
export type RejectionReason =
  | "username_empty"
  | "username_too_long"
  | "username_invalid_characters"
  | "report_invalid_created_at"
  | "report_unknown_category"
  | "report_invalid_confidence"
  | "report_unknown_company"
  | "report_unknown_person"
  | "company_invalid_slug"
  | "company_duplicate_slug"
  | "company_unknown_category"
  | "person_invalid_slug"
  | "person_duplicate_slug"
  | "content_invalid_path"
  | "content_duplicate_path"
  | "fingerprint_profile_invalid"
  | "fingerprint_signal_unknown_key"
  | "fingerprint_signal_bad_value"
  | "chat_invalid_protected_since"
  | "chat_invalid_statistics"
  | "detection_rule_invalid_weight"
  | "detection_rule_unknown_category"
  | "detection_rule_invalid_updated_at";

const EFFECTS: Record<RejectionReason, string> = {
  username_empty: "report kept for its company and person; no username entry",
  username_too_long: "report kept for its company and person; no username entry",
  username_invalid_characters: "report kept for its company and person; no username entry",
  report_invalid_created_at: "report skipped entirely (it cannot be dated)",
  report_unknown_category: "category ignored (treated as none)",
  report_invalid_confidence: "confidence ignored (not an integer): it does not count toward confidence_max",
  report_unknown_company: "company reference ignored",
  report_unknown_person: "person reference ignored",
  company_invalid_slug: "company left out (its slug cannot be a URL path)",
  company_duplicate_slug: "company left out (another company has the same slug, ignoring case)",
  company_unknown_category: "company listed under 'other'",
  person_invalid_slug: "person left out (its slug cannot be a URL path)",
  person_duplicate_slug: "person left out (another person has the same slug, ignoring case)",
  content_invalid_path: "content row left out: no page, search entry or chat status (its slug or username cannot be a URL path)",
  content_duplicate_path: "content row left out (an earlier row of its table has the same slug or username, ignoring case)",
  fingerprint_profile_invalid: "fingerprint profile left out (unknown kind or trust level, or a field of the wrong type)",
  fingerprint_signal_unknown_key: "signal left out of the fingerprint index (no request can send that key)",
  fingerprint_signal_bad_value: "signal left out of the fingerprint index (empty, not text, or longer than 255 characters)",
  chat_invalid_protected_since: "chat published with protected_since null and protected false (not an ISO 8601 instant)",
  chat_invalid_statistics: "chat published with that statistic null (messages_checked and spam_blocked must be whole numbers, 0 or more)",
  detection_rule_invalid_weight: "rule left out of api/detection-rules.json (its weight is not a finite number)",
  detection_rule_unknown_category: "rule published with category null (not a category of the enum)",
  detection_rule_invalid_updated_at: "rule published; its time is left out of the list's updated_at (not an ISO 8601 instant)",
};

const MAX_SAMPLES = 10;
/** Samples show this much of an offending value: enough to find and fix the row, not a 10 KB blob. */
const SAMPLE_TEXT_LENGTH = 80;

/**
 * An offending value as a sample shows it: as text, cut to SAMPLE_TEXT_LENGTH code points with
 * "…"; null stays null. The report is JSON, so control characters and quotes are escaped when it
 * is written.
 */
export function toSampleText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === "string" ? value : String(value);
  const chars = [...text];
  return chars.length > SAMPLE_TEXT_LENGTH ? `${chars.slice(0, SAMPLE_TEXT_LENGTH).join("")}…` : text;
}

type Sample = Record<string, string | number | null>;

export interface RejectionSummary {
  reason: RejectionReason;
  count: number;
  effect: string;
  samples: Record<string, string | number | null>[];
}

/** What emitters see of the rejections: the model's reading is over, so nothing can be added. */
export interface RejectionsReport {
  readonly total: number;
  count(reason: RejectionReason): number;
  toJSON(): RejectionSummary[];
}

export class Rejections implements RejectionsReport {
  private readonly byReason = new Map<RejectionReason, RejectionSummary>();

  /**
   * Counts `count` rejected rows (reports, usually) under `reason`, keeping `sample` if there is
   * room; a sample that costs a query to make is passed as a function, called only then.
   */
  add(reason: RejectionReason, sample: Sample | (() => Sample), count = 1): void {
    const entry = this.entry(reason);
    entry.count += count;
    if (entry.samples.length < MAX_SAMPLES) entry.samples.push(typeof sample === "function" ? sample() : sample);
  }

  private entry(reason: RejectionReason): RejectionSummary {
    let entry = this.byReason.get(reason);
    if (!entry) this.byReason.set(reason, (entry = { reason, count: 0, effect: EFFECTS[reason], samples: [] }));
    return entry;
  }

  count(reason: RejectionReason): number {
    return this.byReason.get(reason)?.count ?? 0;
  }

  get total(): number {
    let n = 0;
    for (const entry of this.byReason.values()) n += entry.count;
    return n;
  }

  /** By reason name, so the report's bytes do not depend on the order rows were met in. */
  toJSON(): RejectionSummary[] {
    return [...this.byReason.values()].sort((a, b) => (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
  }
}
