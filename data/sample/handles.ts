import type { Random } from "./random.ts";
import { HANDLE_WORDS } from "./names.ts";

/**
 * Spelling mistakes and junk that real report forms collect. Each must be rejected by the build
 * with a reason, not silently dropped.
 */
export const INVALID_USERNAMES = [
  "",
  "   ",
  "@",
  "bad name",
  "имя_спамера",
  "spam-bot",
  "user.name",
  "<b>bold</b>",
  "=cmd|' /C calc'!A0",
  "x".repeat(70),
  "@@double",
  "emoji😀user",
];

/** Unique, plausible spammer handles: bait words, separators and digits. */
export function createHandleFactory(random: Random): { next(): string } {
  const used = new Set<string>();
  return {
    next() {
      for (;;) {
        const parts = [random.pick(HANDLE_WORDS)];
        if (random.chance(0.7)) parts.push(random.pick(HANDLE_WORDS));
        let handle = parts.join(random.chance(0.5) ? "_" : "");
        if (random.chance(0.6)) handle += random.int(random.chance(0.5) ? 100 : 100_000);
        if (random.chance(0.1)) handle += "_bot";
        if (handle.length > 64 || used.has(handle)) {
          handle = `${handle.slice(0, 50)}_${used.size.toString(36)}`;
          if (used.has(handle)) continue;
        }
        used.add(handle);
        return handle;
      }
    },
  };
}
