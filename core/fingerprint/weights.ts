/**
 * The signal keys the fingerprint endpoint understands (API reference, "POST /api/fingerprint/match")
 * and how much each one counts. The order of SIGNAL_KEYS is the order in which matched and
 * unmatched keys are listed in a result, and each key's position is its bit in the matcher's masks.
 */

export const SIGNAL_KEYS = [
  "ja4",
  "ja3",
  "ja4_t",
  "webgl_renderer",
  "canvas_geom",
  "canvas_text",
  "audio",
  "fonts_hash",
  "akamai_h2",
] as const;

export type SignalKey = (typeof SIGNAL_KEYS)[number];

/** Limits of the API reference ("Limits"); unknown keys count toward the 20. */
export const MAX_SIGNALS_PER_REQUEST = 20;
export const MAX_SIGNAL_VALUE_LENGTH = 255;

/** One positive integer per key. Integers keep the confidence arithmetic exact (see confidence.ts). */
export type SignalWeights = Readonly<Record<SignalKey, number>>;

/**
 * Weights, out of a total of 120. Two things decide each one: how stable the value is for one
 * client (a signal that changes between visits cannot confirm anything), and whether it names the
 * *client* (what the endpoint is asked) or something else about the machine.
 */
export const SIGNAL_WEIGHTS: SignalWeights = {
  // JA4 sorts ciphers and extensions before hashing, so Chrome's per-connection extension
  // shuffling (since Chrome 110) does not change it; it names the TLS stack and its version
  // family. The strongest single signal we have.
  ja4: 30,
  // JA3 hashes extensions in wire order: stable for Firefox, Safari and HTTP libraries, but a
  // different value on nearly every Chrome connection. It also restates the same ClientHello as
  // JA4, so a high weight would count one observation twice.
  ja3: 6,
  // JA4T (SYN window, TCP options, MSS, window scale) is the operating system's TCP stack: it
  // says which OS, not which client, and the MSS moves with VPNs and tunnels.
  ja4_t: 10,
  // SETTINGS, WINDOW_UPDATE, priorities and pseudo-header order come from the HTTP/2
  // implementation and separate engines and libraries well, but take few distinct values (every
  // Chromium shares one), so it confirms a family rather than a profile.
  akamai_h2: 20,
  // The unmasked renderer names the GPU and driver: hardware more than client, shared by every
  // browser on that machine, and the first thing anti-detect browsers rewrite.
  webgl_renderer: 8,
  // Canvas output depends on engine, rasteriser, GPU and OS fonts together: fairly specific, but
  // noise injection (Brave, anti-detect browsers) makes it unstable where it matters most.
  canvas_geom: 12,
  canvas_text: 12,
  // The OfflineAudioContext sum differs by engine and CPU maths library; a handful of values per
  // engine, so it separates engines, not machines.
  audio: 10,
  // The installed-font set follows OS, locale and installed software: medium, and shared by every
  // browser on the machine.
  fonts_hash: 12,
};

/** Position of each supported key; a Map so that user-supplied keys are never object properties. */
export const SIGNAL_KEY_INDEX: ReadonlyMap<string, number> = new Map(
  SIGNAL_KEYS.map((key, index) => [key, index]),
);

/** Throws unless every key has a positive safe-integer weight. */
export function assertSignalWeights(weights: SignalWeights): void {
  for (const key of SIGNAL_KEYS) {
    const weight = weights[key];
    if (!Number.isSafeInteger(weight) || weight <= 0 || weight > 1_000_000) {
      throw new Error(`fingerprint weight for "${key}" must be an integer from 1 to 1000000, got ${weight}`);
    }
  }
}
