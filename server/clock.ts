/**
 * The one clock behind the server's time-based state: rate-limit windows and the fingerprint
 * answer cache. Date.now is read at each call (never captured at import), so vitest's fake
 * timers move it, and tests can check a window or an expiry without waiting.
 */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
