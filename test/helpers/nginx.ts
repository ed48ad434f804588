/**
 * A real nginx for the hosting tests: the generated `server { }` block inside a minimal
 * `http { }` (no mime.types: the block must set its own types), on a free loopback port, with
 * every path nginx writes in a temporary folder. Under CI a missing nginx is a failure, never a
 * silent skip (scripts/install-test-servers.sh installs Debian's nginx-light).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export function findNginx(): string | null {
  for (const candidate of ["nginx", "/usr/sbin/nginx"]) {
    const probe = spawnSync(candidate, ["-v"], { stdio: "ignore" });
    if (probe.status === 0) return candidate;
  }
  return null;
}

export async function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Debian's brotli static module (libnginx-mod-http-brotli-static), or null when it is not installed. */
export function findBrotliModule(): string | null {
  const path = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";
  return existsSync(path) ? path : null;
}

export interface RunningNginx {
  url: string;
  /** The master process (its one worker is its child). */
  pid: number;
  stop(): void;
}

/** Starts nginx in the foreground with `serverBlock` (and `modules` loaded); resolves once it answers. */
export async function startNginx(
  binary: string,
  dir: string,
  serverBlock: string,
  port: number,
  options: { modules?: string[]; connections?: number } = {},
): Promise<RunningNginx> {
  mkdirSync(join(dir, "temp"), { recursive: true });
  const temp = (name: string) => `${name}_temp_path ${join(dir, "temp", name)};`;
  const conf = `# Test configuration: one worker, everything it writes under ${dir}.
${(options.modules ?? []).map((path) => `load_module ${path};`).join("\n")}
worker_processes 1;
${process.getuid?.() === 0 ? "user root;" : ""}
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections ${options.connections ?? 64}; }
http {
  access_log off;
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
${serverBlock}
}
`;
  const confPath = join(dir, "nginx.conf");
  writeFileSync(confPath, conf);
  const check = spawnSync(binary, ["-t", "-p", dir, "-c", confPath], { encoding: "utf8" });
  if (check.status !== 0) throw new Error(`nginx rejected the generated configuration:\n${check.stderr}`);
  const child: ChildProcess = spawn(binary, ["-p", dir, "-c", confPath, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    try {
      await fetch(`${url}/`);
      return { url, pid: child.pid!, stop: () => child.kill("SIGTERM") };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill("SIGKILL");
  throw new Error(`nginx did not answer on ${url}: ${stderr}`);
}
