/**
 * Ports as an operator means them: 0 is any free port, and any other port is that port or an
 * error — never a server quietly listening somewhere else.
 */
import { createServer, type Server } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../server/listen.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { getFreePort } from "../helpers/nginx.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("listen");
});
afterAll(() => fixture.cleanup());

const start = (port: number, host = "127.0.0.1") => startServer({ dist: fixture.dist, port, host });

describe("startServer", () => {
  it("gives each server started with port 0 a free port of its own, and serves there", async () => {
    const servers = await Promise.all([start(0), start(0), start(0)]);
    try {
      const ports = servers.map((s) => new URL(s.url).port);
      expect(new Set(ports).size).toBe(3);
      for (const server of servers) expect((await fetch(new URL("/api/check/spam_king", server.url))).status).toBe(200);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });

  it("sends the standard reason phrase with every status, as nginx does (clients show it as statusText)", async () => {
    const server = await start(0);
    try {
      for (const [path, init, line] of [
        ["/api/check/spam_king", {}, "200 OK"],
        ["/api/check/not%20a%20username", {}, "422 Unprocessable Entity"],
        ["/api/check/spam_king", { method: "DELETE" }, "405 Method Not Allowed"],
        ["/nothing-here.json", {}, "404 Not Found"],
      ] as const) {
        const response = await fetch(new URL(path, server.url), init);
        expect(`${response.status} ${response.statusText}`, path).toBe(line);
      }
      const etag = (await fetch(new URL("/api/check/spam_king", server.url))).headers.get("etag")!;
      const cached = await fetch(new URL("/api/check/spam_king", server.url), { headers: { "if-none-match": etag } });
      expect(`${cached.status} ${cached.statusText}`).toBe("304 Not Modified");
    } finally {
      await server.close();
    }
  });

  it("listens on an explicit port as asked, and gives its URL", async () => {
    const port = await getFreePort();
    const server = await start(port);
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}/`);
      expect((await fetch(new URL("/manifest.json", server.url))).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("fails when an explicit port is taken, rather than move to another", async () => {
    const port = await getFreePort();
    const taken: Server = await new Promise((resolve) => {
      const other = createServer().listen(port, "127.0.0.1", () => resolve(other));
    });
    try {
      await expect(start(port)).rejects.toThrow(String(port));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  const hasIPv6Loopback = Object.values(networkInterfaces()).some((addresses) => addresses?.some((a) => a.address === "::1"));
  it.skipIf(!hasIPv6Loopback)("brackets an IPv6 host in its URL", async () => {
    const server = await start(0, "::1");
    try {
      expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+\/$/);
    } finally {
      await server.close();
    }
  });
});
