/**
 * A real redis-server for the tests of servers that share their limits and match cache: on a
 * free loopback port, with no persistence (no RDB snapshot, no append-only file) and its working
 * folder in a temporary folder. Under CI a missing redis-server is a failure, never a silent skip
 * (scripts/install-test-servers.sh installs Debian's redis-server).
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync } from "node:fs";
import { connect } from "node:net";
import { vi } from "vitest";
import { getFreePort } from "./nginx.ts";

export function findRedisServer(): string | null {
  for (const candidate of ["redis-server", "/usr/bin/redis-server"]) {
    const probe = spawnSync(candidate, ["--version"], { stdio: "ignore" });
    if (probe.status === 0) return candidate;
  }
  return null;
}

export interface RunningRedis {
  url: string;
  port: number;
  /** SIGSTOP: Redis hangs, connections stay open, commands get no answer. */
  pause(): void;
  /** SIGKILL, as a crash would: no goodbye to the clients. Resolves once the process is gone. */
  kill(): Promise<void>;
}

/** Starts redis-server in `dir` on `port` (a free one by default); resolves once it answers PING. */
export async function startRedis(binary: string, dir: string, port?: number): Promise<RunningRedis> {
  const listenPort = port ?? (await getFreePort());
  mkdirSync(dir, { recursive: true });
  const args = ["--port", String(listenPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir];
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += String(chunk)));
  child.stderr.on("data", (chunk) => (output += String(chunk)));
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  };
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited: ${output}`);
    if (await pingRedis(listenPort)) return { url: `redis://127.0.0.1:${listenPort}`, port: listenPort, pause: () => child.kill("SIGSTOP"), kill };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await kill();
  throw new Error(`redis-server did not answer on port ${listenPort}: ${output}`);
}

/** Whether a Redis answers PING on the port, in RESP by hand: the helper depends on no client. */
function pingRedis(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let reply = "";
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += String(chunk);
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
    socket.on("error", () => done(false));
  });
}

export interface RedisLog {
  /** The `redis:` lines the servers printed to stdout (connected, back) and to stderr (unavailable). */
  info(): string[];
  warnings(): string[];
  restore(): void;
}

/** Captures what the servers of this process say about Redis, and keeps it off the test's output. */
export function captureRedisLog(): RedisLog {
  const info = vi.spyOn(console, "log").mockImplementation(() => {});
  const warn = vi.spyOn(console, "error").mockImplementation(() => {});
  const lines = (spy: typeof info) => spy.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith("redis:"));
  return {
    info: () => lines(info),
    warnings: () => lines(warn),
    restore: () => {
      info.mockRestore();
      warn.mockRestore();
    },
  };
}
