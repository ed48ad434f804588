/**
 * Shutdown under load: `npm run serve` as a process manager runs it, keep-alive clients reading
 * as fast as it answers and a few slow uploads in progress, then SIGTERM to npm. Counts the
 * requests in flight at that moment (sent, not yet answered) and how many of them failed — the
 * figure that must be 0 — and what became of the requests sent after it (answered with
 * `Connection: close`, refused, cleanly closed, or reset: resets must be 0 too).
 * Run: npm run bench -- --only shutdown   (loopback only; bounded by `loadMs` and `maxRequests`)
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { openRawConnection, type RawConnection } from "../test/helpers/raw-http.ts";
import { buildFixture } from "../test/helpers/fixture.ts";

export interface ShutdownBenchOptions {
  /** Keep-alive clients, each sending its next request as soon as the last is answered. */
  concurrency: number;
  /** Uploads that send half a body before the signal and the rest after it. */
  slowUploads: number;
  /** Load before the signal (ms). */
  loadMs: number;
  maxRequests: number;
}

export interface ShutdownFigures {
  inFlightAtSignal: number;
  inFlightFailed: number;
  /** Answered after the signal (in flight then, or sent on a connection still open), all with Connection: close. */
  answeredWithClose: number;
  sentAfter: { answered: number; refused: number; closed: number; reset: number };
  exitCode: number | null;
  requestsBefore: number;
  drainMs: number;
}

const PATHS = ["/api/companies?limit=5", "/api/check/spam_king", "/api/search?q=al", "/api/companies/all.json", "/api/badge/alpha-leads.svg"];
const BODY = JSON.stringify({ signals: { ja4: "t13d1516h2_8daaf6152771_02713d6af862" } });

type Outcome = "answered" | "refused" | "closed" | "reset" | "failed";

export async function runShutdownBench(options: Partial<ShutdownBenchOptions> = {}): Promise<ShutdownFigures> {
  const { concurrency, slowUploads, loadMs, maxRequests }: ShutdownBenchOptions = { concurrency: 32, slowUploads: 4, loadMs: 2000, maxRequests: 200_000, ...options };
  const fixture = buildFixture("shutdown-bench");
  const root = fileURLToPath(new URL("..", import.meta.url));
  const npm = spawn("npm", ["run", "serve", "--", "--dist", fixture.dist, "--port", "0", "--host", "127.0.0.1"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  try {
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      npm.stdout!.on("data", (chunk) => {
        output += chunk;
        const found = /serving .* at (http:\/\/\S+)/.exec(output);
        if (found) resolve(found[1]!);
      });
      void exited.then(() => reject(new Error(`shutdown bench: the server exited: ${output}`)));
    });
    let signalAt = Number.POSITIVE_INFINITY;
    const records: { sentAt: number; doneAt: number; outcome: Outcome; close: boolean }[] = [];
    let sent = 0;
    const client = async () => {
      for (let i = 0; sent < maxRequests; i++) {
        sent++;
        const sentAt = performance.now();
        const { outcome, close } = await fetchOnce(new URL(PATHS[i % PATHS.length]!, url));
        records.push({ sentAt, doneAt: performance.now(), outcome, close });
        if (outcome !== "answered") return;
      }
    };
    const uploads: RawConnection[] = [];
    for (let i = 0; i < slowUploads; i++) {
      const upload = await openRawConnection(url);
      upload.write(`POST /api/fingerprint/match HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY.slice(0, 10)}`);
      uploads.push(upload);
    }
    const uploadsSentAt = performance.now();
    const clients = Array.from({ length: concurrency }, client);
    await new Promise((r) => setTimeout(r, loadMs));
    signalAt = performance.now();
    npm.kill("SIGTERM");
    const uploadAnswers = uploads.map(async (upload) => {
      upload.write(BODY.slice(10));
      const answer = await upload.readResponse().then((r) => r, () => null);
      records.push({ sentAt: uploadsSentAt, doneAt: performance.now(), outcome: answer?.status === 200 ? "answered" : "failed", close: answer?.headers.connection === "close" });
    });
    await Promise.all([...clients, ...uploadAnswers]);
    const exitCode = await exited;
    const drainMs = performance.now() - signalAt;
    const inFlight = records.filter((r) => r.sentAt < signalAt && r.doneAt >= signalAt);
    const after = records.filter((r) => r.sentAt >= signalAt);
    const count = (list: typeof records, outcome: Outcome) => list.filter((r) => r.outcome === outcome).length;
    return {
      inFlightAtSignal: inFlight.length,
      inFlightFailed: inFlight.filter((r) => r.outcome !== "answered").length,
      answeredWithClose: records.filter((r) => r.doneAt >= signalAt && r.outcome === "answered" && r.close).length,
      sentAfter: { answered: count(after, "answered"), refused: count(after, "refused"), closed: count(after, "closed"), reset: count(after, "reset") },
      exitCode,
      requestsBefore: records.filter((r) => r.doneAt < signalAt).length,
      drainMs,
    };
  } finally {
    if (npm.exitCode === null) npm.kill("SIGKILL");
    fixture.cleanup();
  }
}

/** One GET: answered (and whether with Connection: close), or how it failed. */
async function fetchOnce(url: URL): Promise<{ outcome: Outcome; close: boolean }> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return { outcome: res.status === 200 ? "answered" : "failed", close: res.headers.get("connection") === "close" };
  } catch (error) {
    const code = String((error as { cause?: { code?: string } }).cause?.code ?? "");
    if (code === "ECONNREFUSED") return { outcome: "refused", close: false };
    if (code === "ECONNRESET") return { outcome: "reset", close: false };
    // undici's "other side closed": a FIN before any answer, on a connection the server ended.
    if (code.startsWith("UND_ERR_SOCKET")) return { outcome: "closed", close: false };
    return { outcome: "failed", close: false };
  }
}

/** The bench's table rows (bench/run.ts prints them). */
export function toShutdownRows(f: ShutdownFigures, concurrency: number): { metric: string; value: string; baseline: string; ratio: string; target: string }[] {
  const row = (metric: string, value: string, target = "") => ({ metric, value, baseline: "", ratio: "", target });
  return [
    row(`load before SIGTERM (${concurrency} keep-alive clients + slow uploads)`, `${f.requestsBefore.toLocaleString("en")} requests answered`),
    row("requests in flight at SIGTERM", String(f.inFlightAtSignal)),
    row("of those, failed", String(f.inFlightFailed), `0 ${f.inFlightFailed === 0 ? "✓" : "✗"}`),
    row("answered after SIGTERM, with Connection: close", String(f.answeredWithClose)),
    row("sent after SIGTERM: answered / refused / closed cleanly / reset", `${f.sentAfter.answered} / ${f.sentAfter.refused} / ${f.sentAfter.closed} / ${f.sentAfter.reset}`, `reset 0 ${f.sentAfter.reset === 0 ? "✓" : "✗"}`),
    row("npm's exit status; SIGTERM to exit", `${f.exitCode}; ${(f.drainMs / 1000).toFixed(2)} s`, "0, ≤ 10 s"),
  ];
}
