/**
 * A small closed-loop HTTP load generator for the benchmarks: `concurrency` clients, each sending
 * its next request as soon as the previous answer is read, over Node's fetch (undici, keep-alive),
 * for a bounded time and a bounded number of requests. Loopback only: it is pointed at a server
 * the benchmark started itself.
 */

export interface LoadOptions {
  concurrency: number;
  /** Measured time; the run stops at this or at maxRequests, whichever comes first. */
  seconds: number;
  maxRequests: number;
  /** Requests sent first and not measured (connections opened, JIT warm, caches filled). */
  warmupSeconds: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  /** Answers whose status was not the expected one. */
  failures: number;
  latenciesMs: Float64Array;
}

export interface LoadSummary {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/** `send(i)` makes request number i (0, 1, 2, … across all clients; warm-up requests are negative). */
export type SendRequest = (i: number) => Promise<Response>;

export async function runLoad(send: SendRequest, expectedStatus: number, options: LoadOptions, firstIndex = 0): Promise<LoadResult> {
  let warmupIndex = -1 - firstIndex;
  await runClients(options.concurrency, options.warmupSeconds, Number.POSITIVE_INFINITY, async () => {
    const res = await send(warmupIndex--);
    await res.arrayBuffer();
  });

  const latencies = new Float64Array(options.maxRequests);
  let issued = 0;
  let failures = 0;
  const started = performance.now();
  await runClients(options.concurrency, options.seconds, options.maxRequests, async () => {
    const i = issued++;
    const t = performance.now();
    const res = await send(firstIndex + i);
    await res.arrayBuffer();
    latencies[i] = performance.now() - t;
    if (res.status !== expectedStatus) failures++;
  });
  return { requests: issued, seconds: (performance.now() - started) / 1000, failures, latenciesMs: latencies.slice(0, issued) };
}

/** Several runs of one scenario as one: total requests over total time, percentiles over all. */
export function summarizeLoad(results: readonly LoadResult[]): LoadSummary {
  const requests = results.reduce((n, r) => n + r.requests, 0);
  const seconds = results.reduce((n, r) => n + r.seconds, 0);
  const sorted = new Float64Array(requests);
  let offset = 0;
  for (const r of results) {
    sorted.set(r.latenciesMs, offset);
    offset += r.requests;
  }
  sorted.sort();
  return {
    requests,
    perSecond: requests / seconds,
    p50Ms: sorted[Math.floor(requests * 0.5)] ?? NaN,
    p99Ms: sorted[Math.min(requests - 1, Math.floor(requests * 0.99))] ?? NaN,
    failures: results.reduce((n, r) => n + r.failures, 0),
  };
}

/** Runs `step` in `concurrency` loops until `seconds` pass or `maxSteps` have started. */
async function runClients(concurrency: number, seconds: number, maxSteps: number, step: () => Promise<void>): Promise<void> {
  const end = performance.now() + seconds * 1000;
  let started = 0;
  const loop = async () => {
    while (performance.now() < end && started < maxSteps) {
      started++;
      await step();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}
