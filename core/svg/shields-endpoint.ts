/**
 * A company badge as shields.io's endpoint JSON (https://shields.io/badges/endpoint-badge), so
 * anyone can restyle it with shields (`https://img.shields.io/endpoint?url=…&style=for-the-badge`).
 * It says what the SVG badge says: the label, message and colour come from the same BadgeInput
 * (core/svg/badge.ts getCompanyBadge). Shields rejects keys outside its schema, so only schema
 * keys are written; names are whole (shields lays the text out itself, our SVG cuts it at 180px).
 */
import { Type, type Static } from "@sinclair/typebox";
import { BADGE_COLORS, type BadgeInput } from "./badge.ts";
import { toDisplayText } from "./text-width.ts";

/** Shields' minimum and our own five public minutes (the route's Cache-Control). */
const CACHE_SECONDS = 300;

export const ShieldsEndpointSchema = Type.Object(
  {
    schemaVersion: Type.Literal(1),
    label: Type.String({ description: "The left text: the company's name, as the SVG badge's label." }),
    message: Type.String({ minLength: 1, description: "The right text, as the SVG badge's value (`12 complaints`)." }),
    color: Type.String({ pattern: "^#[0-9a-f]{6}$", description: "The right side's colour, the SVG badge's: green without complaints, red when rising or 100+, amber otherwise." }),
    labelColor: Type.String({ pattern: "^#[0-9a-f]{6}$", description: "The left side's grey." }),
    cacheSeconds: Type.Integer({ minimum: 300, description: "How long shields may keep it: five minutes, as this API's Cache-Control." }),
  },
  { $id: "ShieldsEndpoint", additionalProperties: false, description: "shields.io endpoint badge schema, version 1." },
);
export type ShieldsEndpoint = Static<typeof ShieldsEndpointSchema>;

export function toShieldsEndpoint(badge: BadgeInput): ShieldsEndpoint {
  return {
    schemaVersion: 1,
    label: toDisplayText(badge.label),
    message: toDisplayText(badge.value),
    color: badge.color,
    labelColor: BADGE_COLORS.label,
    cacheSeconds: CACHE_SECONDS,
  };
}
