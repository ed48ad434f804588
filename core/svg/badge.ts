/**
 * Shields-style "flat" badges: a grey label and a coloured value, 20px high, each part as wide
 * as its text plus padding. Pure functions: data in, SVG text out. The colours keep white text
 * at a contrast of at least 4.5:1 (WCAG AA for small text), which shields' own palette does not.
 */
import { formatCount, pluralize } from "../format.ts";
import { createElement, createSvgDocument, createText, FONT_FAMILY } from "./markup.ts";
import { measureText, toDisplayText, truncateToWidth } from "./text-width.ts";

const BADGE_HEIGHT = 20;
/** Space left and right of each text. */
const PADDING = 6;
/** A longer label (a company name) is cut with an ellipsis; the accessible name keeps it whole. */
const MAX_LABEL_WIDTH = 180;

export const BADGE_COLORS = {
  label: "#555555",
  /** No complaints. */
  green: "#2e7d32",
  /** Complaints, steady or falling. */
  amber: "#9a6700",
  /** Complaints rising week over week, or 100 and more in all. */
  red: "#c62828",
  /** A chat without active protection: neutral, not an alarm. */
  grey: "#6e7781",
} as const;

export interface BadgeInput {
  label: string;
  value: string;
  color: string;
  /** What a screen reader says and a tooltip shows; the whole story, untruncated. */
  accessibleName: string;
}

function renderBadge({ label, value, color, accessibleName }: BadgeInput): string {
  const labelText = truncateToWidth(toDisplayText(label), MAX_LABEL_WIDTH);
  const valueText = toDisplayText(value);
  const labelWidth = Math.ceil(measureText(labelText)) + 2 * PADDING;
  const valueWidth = Math.ceil(measureText(valueText)) + 2 * PADDING;
  const width = labelWidth + valueWidth;
  const body =
    createElement(
      "linearGradient",
      { id: "s", x2: "0", y2: "100%" },
      createElement("stop", { offset: "0", "stop-color": "#bbb", "stop-opacity": ".1" }) + createElement("stop", { offset: "1", "stop-opacity": ".1" }),
    ) +
    createElement("clipPath", { id: "r" }, createElement("rect", { width, height: BADGE_HEIGHT, rx: 3, fill: "#fff" })) +
    createElement(
      "g",
      { "clip-path": "url(#r)" },
      createElement("rect", { width: labelWidth, height: BADGE_HEIGHT, fill: BADGE_COLORS.label }) +
        createElement("rect", { x: labelWidth, width: valueWidth, height: BADGE_HEIGHT, fill: color }) +
        createElement("rect", { width, height: BADGE_HEIGHT, fill: "url(#s)" }),
    ) +
    createElement(
      "g",
      { fill: "#fff", "text-anchor": "middle", "font-family": FONT_FAMILY },
      createText(labelText, { x: labelWidth / 2, y: 14, fontSize: 11 }) + createText(valueText, { x: labelWidth + valueWidth / 2, y: 14, fontSize: 11 }),
    );
  return createSvgDocument(width, BADGE_HEIGHT, accessibleName, body);
}

/** `no complaints`, `1 complaint`, `1,234 complaints` (docs/decisions.md "Words": a company has complaints). */
function formatComplaints(count: number): string {
  if (count === 0) return "no complaints";
  return `${formatCount(count)} ${pluralize(count, "complaint")}`;
}

export interface CompanyBadgeInput {
  name: string;
  reportsCount: number;
  /** The week-over-week direction as displayed (core/trend.ts). */
  trendDirection: "up" | "down" | "flat";
}

/** Green without complaints; red when they rise or reach 100; amber otherwise. */
function getCompanyBadgeColor({ reportsCount, trendDirection }: CompanyBadgeInput): string {
  if (reportsCount === 0) return BADGE_COLORS.green;
  if (trendDirection === "up" || reportsCount >= 100) return BADGE_COLORS.red;
  return BADGE_COLORS.amber;
}

/**
 * What a company's badge says and in which colour: the one decision behind the SVG badge and its
 * shields.io endpoint JSON (core/svg/shields-endpoint.ts), so the two cannot disagree.
 */
export function getCompanyBadge(company: CompanyBadgeInput): BadgeInput {
  const value = formatComplaints(company.reportsCount);
  return {
    label: company.name,
    value,
    color: getCompanyBadgeColor(company),
    accessibleName: `${toDisplayText(company.name)}: ${value}`,
  };
}

export function renderCompanyBadge(company: CompanyBadgeInput): string {
  return renderBadge(getCompanyBadge(company));
}

export interface ChatBadgeInput {
  username: string;
  title: string;
  protected: boolean;
  /** Date part of protected_since, when known. */
  protectedSinceDate: string | null;
  /** Null when the snapshot's count is unreadable: the badge then leaves it out. */
  spamBlocked: number | null;
}

/** `spam protection | protected` (green) or `spam protection | not protected` (grey). */
export function renderChatBadge(chat: ChatBadgeInput): string {
  const who = `${toDisplayText(chat.title)} (@${chat.username})`;
  const since = chat.protectedSinceDate ? ` since ${chat.protectedSinceDate}` : "";
  const blocked = chat.spamBlocked === null ? "" : `, ${formatCount(chat.spamBlocked)} spam ${pluralize(chat.spamBlocked, "message")} blocked`;
  const detail = chat.protected ? `protected${since}${blocked}` : "not protected";
  return renderBadge({
    label: "spam protection",
    value: chat.protected ? "protected" : "not protected",
    color: chat.protected ? BADGE_COLORS.green : BADGE_COLORS.grey,
    accessibleName: `Spam protection of ${who}: ${detail}`,
  });
}

/**
 * The badge of an address that names no company or chat, answered with status 404 so that an
 * `<img>` shows a sentence instead of a broken image. Constant (it never repeats the request),
 * so a static host serves the same bytes from one file of the build.
 */
export function renderNotFoundBadge(): string {
  return renderBadge({
    label: "spam check",
    value: "not found",
    color: BADGE_COLORS.grey,
    accessibleName: "Spam check: not found. Nothing is published under this name; check the spelling of the company or chat.",
  });
}
