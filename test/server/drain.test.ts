/**
 * Closing a listening server drains it (server/connections.ts): no new connection is accepted, a
 * request in flight or already sent on a keep-alive connection is answered with
 * `Connection: close`, an idle connection ends with a FIN and never a reset, and at the drain
 * timeout what is still open is dropped and counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../server/listen.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { openRawConnection, type RawConnection } from "../helpers/raw-http.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("drain");
});
afterAll(() => fixture.cleanup());

const BODY = JSON.stringify({ signals: { ja4: "t13d1516h2_8daaf6152771_02713d6af862" } });
const POST_HEAD = `POST /api/fingerprint/match HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`;
const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

const start = (drainMs: number) => startServer({ dist: fixture.dist, port: 0, host: "127.0.0.1", timeouts: { drainMs } });

/** A keep-alive connection that has had one answer and is idle now. */
async function openIdle(url: string): Promise<RawConnection> {
  const connection = await openRawConnection(url);
  connection.write(GET("/api/companies?limit=1"));
  expect((await connection.readResponse()).headers.connection).toBe("keep-alive");
  return connection;
}

describe("closing a server", () => {
  it("answers the request in flight and the one just sent on a kept-alive connection, each with Connection: close", async () => {
    const server = await start(10_000);
    const uploading = await openRawConnection(server.url);
    uploading.write(POST_HEAD + BODY.slice(0, 5));
    const keptAlive = await openIdle(server.url);
    keptAlive.write(GET("/api/companies?limit=2"));
    const report = server.close();
    uploading.write(BODY.slice(5));
    const [upload, next] = await Promise.all([uploading.readResponse(), keptAlive.readResponse()]);
    expect([upload.status, upload.headers.connection]).toEqual([200, "close"]);
    expect([next.status, next.headers.connection]).toEqual([200, "close"]);
    expect(JSON.parse(next.body).data).toHaveLength(2);
    expect(await Promise.all([uploading.ended, keptAlive.ended])).toEqual(["end", "end"]);
    expect(await report).toEqual({ answered: 2, dropped: 0 });
  });

  it("ends idle keep-alive connections with a FIN, not a reset, and refuses new connections", async () => {
    const server = await start(10_000);
    const idle = await Promise.all([openIdle(server.url), openIdle(server.url), openIdle(server.url)]);
    const report = await server.close();
    expect(await Promise.all(idle.map((c) => c.ended))).toEqual(["end", "end", "end"]);
    expect(report).toEqual({ answered: 0, dropped: 0 });
    await expect(fetch(server.url)).rejects.toMatchObject({ cause: { code: "ECONNREFUSED" } });
  });

  it("drops what is still unanswered at the drain timeout, and says how much", async () => {
    const server = await start(300);
    const stalled = await openRawConnection(server.url);
    stalled.write(POST_HEAD + BODY.slice(0, 5));
    const answered = await openRawConnection(server.url);
    answered.write(GET("/api/companies?limit=1"));
    await answered.readResponse();
    expect(await server.close()).toEqual({ answered: 0, dropped: 1 });
    await expect(stalled.readResponse()).rejects.toThrow(/closed before a whole response/);
  });

  it("drains once, however often it is asked", async () => {
    const server = await start(10_000);
    const first = server.close();
    expect(server.close()).toBe(first);
    await first;
  });
});
