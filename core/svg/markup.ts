/**
 * The few SVG building blocks the badges and cards share. Every attribute value and every text
 * node goes through core/escape.ts (the one markup escaper, which also drops the control
 * characters XML cannot carry); only element and attribute names, constants of this code, are
 * written as they are.
 */
import { escapeMarkup } from "../escape.ts";
import { measureText } from "./text-width.ts";

export type Attributes = Record<string, string | number | null | undefined>;

/** Verdana first (the width table's font), then look-alikes with similar metrics. */
export const FONT_FAMILY = "Verdana,Geneva,DejaVu Sans,sans-serif";

/** Coordinates with at most one decimal and no trailing `.0`, so output bytes are stable. */
function formatCoordinate(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** `<name a="…">children</name>`, or self-closing without children; null attributes are left out. */
export function createElement(name: string, attributes: Attributes = {}, children: string | null = null): string {
  let markup = `<${name}`;
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined) continue;
    const text = typeof value === "number" ? formatCoordinate(value) : value;
    markup += ` ${key}="${escapeMarkup(text)}"`;
  }
  return children === null ? `${markup}/>` : `${markup}>${children}</${name}>`;
}

export interface TextOptions {
  x: number;
  y: number;
  fontSize: number;
  anchor?: "start" | "middle" | "end";
  fill?: string;
}

/**
 * One line of text. `textLength` pins the drawn width to the measured one, as shields does: a
 * fallback font that runs wider or narrower than Verdana is squeezed or spaced to the width the
 * layout reserved, so the text never leaves its box.
 */
export function createText(text: string, { x, y, fontSize, anchor, fill }: TextOptions): string {
  const width = measureText(text, fontSize);
  return createElement(
    "text",
    {
      x,
      y,
      "font-size": fontSize,
      "text-anchor": anchor === "start" ? null : anchor,
      fill,
      textLength: width > 0 ? width : null,
    },
    escapeMarkup(text),
  );
}

/**
 * The outer element of every SVG we publish: fixed size, and accessible as one image (`role`,
 * `aria-label` and a `<title>` that tooltips and older screen readers use).
 */
export function createSvgDocument(width: number, height: number, accessibleName: string, body: string): string {
  const attributes = {
    xmlns: "http://www.w3.org/2000/svg",
    width,
    height,
    viewBox: `0 0 ${formatCoordinate(width)} ${formatCoordinate(height)}`,
    role: "img",
    "aria-label": accessibleName,
  };
  return createElement("svg", attributes, createElement("title", {}, escapeMarkup(accessibleName)) + body) + "\n";
}

