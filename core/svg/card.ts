/**
 * The company card: a fixed 340×120 SVG with the name (cut with an ellipsis by measured width),
 * the category, the number of complaints, the week-over-week trend and a sparkline of the last
 * 7 days (day-6 … day-0, one bar a day). Pure: plain data in, SVG text out.
 *
 *   ┌────────────────────────────────────────────┐
 *   │ Name of the company…                       │  name, 15px, 308px at most
 *   │ Category label                             │
 *   │                          +20% vs last week │  right column, 138px
 *   │ 1,234                    ▂ ▅ ▁ █ ▃ ▂ ▆     │
 *   │ reports                      last 7 days   │
 *   └────────────────────────────────────────────┘
 */
import { formatCount, pluralize } from "../format.ts";
import { createElement, createSvgDocument, createText, FONT_FAMILY } from "./markup.ts";
import { measureText, toDisplayText, truncateToWidth } from "./text-width.ts";

export const CARD_WIDTH = 340;
export const CARD_HEIGHT = 120;
const MARGIN = 16;
const INNER_RIGHT = CARD_WIDTH - MARGIN;
const NAME_SIZE = 15;
const COUNT_SIZE = 24;
const LEFT_COLUMN_WIDTH = 150;
const RIGHT_COLUMN_WIDTH = 138;
const BARS = { width: 14, gap: 6, top: 80, bottom: 104 } as const;

export const CARD_COLORS = {
  background: "#ffffff",
  border: "#d0d7de",
  text: "#1f2328",
  muted: "#57606a",
  /** More complaints than the week before: bad news, red. */
  up: "#c62828",
  down: "#2e7d32",
  flat: "#57606a",
  bar: "#0969da",
  emptyDay: "#d0d7de",
} as const;

export interface CardInput {
  name: string;
  categoryLabel: string;
  reportsCount: number;
  /** Complaints per day, day-6 … day-0 (the widget's last_7_days). */
  lastSevenDays: readonly number[];
  /** The widget's trend, e.g. `+12%` (core/trend.ts formatTrend). */
  trend: string;
  trendDirection: "up" | "down" | "flat";
}

/** The preferred size, or the largest whole size at which `text` fits `maxWidth`. */
function fitFontSize(text: string, maxWidth: number, preferred: number): number {
  const width = measureText(text, preferred);
  return width <= maxWidth ? preferred : Math.max(1, Math.floor((preferred * maxWidth) / width));
}

function renderSparkline(days: readonly number[]): string {
  const max = Math.max(1, ...days);
  const height = BARS.bottom - BARS.top;
  const left = INNER_RIGHT - (days.length * BARS.width + (days.length - 1) * BARS.gap);
  let bars = "";
  days.forEach((count, i) => {
    // A day with complaints is at least 2px tall, so it never looks like an empty day (1px, grey).
    const barHeight = count > 0 ? Math.max(2, Math.round((count / max) * height)) : 1;
    const fill = count > 0 ? CARD_COLORS.bar : CARD_COLORS.emptyDay;
    bars += createElement("rect", { x: left + i * (BARS.width + BARS.gap), y: BARS.bottom - barHeight, width: BARS.width, height: barHeight, fill });
  });
  return bars;
}

/** The accessible name: everything the card draws, in words. */
function describeCard(card: CardInput): string {
  if (card.reportsCount === 0) return `${toDisplayText(card.name)}, ${card.categoryLabel}: no complaints`;
  const current = card.lastSevenDays.reduce((a, b) => a + b, 0);
  const reports = `${formatCount(card.reportsCount)} ${pluralize(card.reportsCount, "complaint")}`;
  const recent = `${formatCount(current)} in the last 7 days (${card.trend} vs the 7 days before)`;
  return `${toDisplayText(card.name)}, ${card.categoryLabel}: ${reports}; ${recent}; by day, oldest first: ${card.lastSevenDays.join(", ")}`;
}

export function renderCompanyCardSvg(card: CardInput): string {
  const name = truncateToWidth(toDisplayText(card.name), CARD_WIDTH - 2 * MARGIN, NAME_SIZE);
  const category = truncateToWidth(card.categoryLabel, CARD_WIDTH - 2 * MARGIN);
  const count = formatCount(card.reportsCount);
  const trend = card.reportsCount === 0 ? "no complaints yet" : `${card.trend} vs last week`;
  const trendColor = card.reportsCount === 0 ? CARD_COLORS.muted : CARD_COLORS[card.trendDirection];
  const body =
    createElement("rect", { x: 0.5, y: 0.5, width: CARD_WIDTH - 1, height: CARD_HEIGHT - 1, rx: 6, fill: CARD_COLORS.background, stroke: CARD_COLORS.border }) +
    createElement(
      "g",
      { "font-family": FONT_FAMILY },
      createText(name, { x: MARGIN, y: 32, fontSize: NAME_SIZE, fill: CARD_COLORS.text }) +
        createText(category, { x: MARGIN, y: 52, fontSize: 11, fill: CARD_COLORS.muted }) +
        createText(count, { x: MARGIN, y: 92, fontSize: fitFontSize(count, LEFT_COLUMN_WIDTH, COUNT_SIZE), fill: CARD_COLORS.text }) +
        createText(pluralize(card.reportsCount, "complaint"), { x: MARGIN, y: 108, fontSize: 11, fill: CARD_COLORS.muted }) +
        createText(trend, { x: INNER_RIGHT, y: 72, fontSize: fitFontSize(trend, RIGHT_COLUMN_WIDTH, 11), anchor: "end", fill: trendColor }) +
        createText("last 7 days", { x: INNER_RIGHT, y: 116, fontSize: 9, anchor: "end", fill: CARD_COLORS.muted }),
    ) +
    renderSparkline(card.lastSevenDays);
  return createSvgDocument(CARD_WIDTH, CARD_HEIGHT, describeCard(card), body);
}
