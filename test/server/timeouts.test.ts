/**
 * Slow and stalled clients (DESIGN "More than one server"), against a real listening server whose
 * timeouts are shortened so that the test is quick: headers that do not arrive in time, a body
 * that trickles in a byte at a time, a connection that never says anything, and an idle
 * keep-alive connection. What is asserted is the outcome (the answer, how the connection ended),
 * never how long it took.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatProblem, TRANSPORT_PROBLEMS } from "../../core/routes/problem.ts";
import { startServer, type RunningServer } from "../../server/listen.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";
import { openRawConnection, type RawResponse } from "../helpers/raw-http.ts";

let fixture: BuiltFixture;
let server: RunningServer;
beforeAll(async () => {
  fixture = buildFixture("timeouts");
  server = await startServer({ dist: fixture.dist, port: 0, host: "127.0.0.1", timeouts: { headersMs: 300, bodyMs: 300, keepAliveMs: 1000 } });
});
afterAll(async () => {
  await server?.close();
  fixture.cleanup();
});

const BODY = JSON.stringify({ signals: { ja4: "t13d1516h2_8daaf6152771_02713d6af862" } });
const POST_HEAD = `POST /api/fingerprint/match HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`;

function expectProblem(response: RawResponse, problem: { status: number; detail: string }): void {
  expect(response.status).toBe(problem.status);
  expect(response.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
  expect(response.headers["access-control-allow-origin"]).toBe("*");
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  expect(response.headers.connection).toBe("close");
  expect(response.body).toBe(formatProblem(problem.status, problem.detail));
}

describe("a server's timeouts", () => {
  it("answer headers that stop arriving with a 408 problem, and close the connection", async () => {
    const connection = await openRawConnection(server.url);
    connection.write("GET /api/companies HTTP/1.1\r\nHost: x\r\n");
    expectProblem(await connection.readResponse(), TRANSPORT_PROBLEMS.headersTimeout);
    expect(await connection.ended).toBe("end");
  });

  it("end headers sent a byte at a time, although bytes keep coming", async () => {
    const connection = await openRawConnection(server.url);
    const head = "GET /api/companies HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(200);
    let sent = 0;
    const drip = setInterval(() => sent < head.length && connection.write(head[sent++]!), 20);
    try {
      expectProblem(await connection.readResponse(), TRANSPORT_PROBLEMS.headersTimeout);
      expect(sent).toBeLessThan(head.length);
    } finally {
      clearInterval(drip);
    }
  });

  it("answer a declared body sent a byte at a time with a 408 problem, counted from the headers", async () => {
    // Node's own request timer (headers and body together) would let this body finish: only the body timer ends it.
    const bodyOnly = await startServer({ dist: fixture.dist, port: 0, host: "127.0.0.1", timeouts: { headersMs: 10_000, bodyMs: 300 } });
    const connection = await openRawConnection(bodyOnly.url);
    connection.write(POST_HEAD);
    let sent = 0;
    const drip = setInterval(() => sent < BODY.length && connection.write(BODY[sent++]!), 20);
    try {
      expectProblem(await connection.readResponse(), TRANSPORT_PROBLEMS.bodyTimeout);
      expect(sent).toBeLessThan(BODY.length);
      expect(await connection.ended).toBe("end");
    } finally {
      clearInterval(drip);
      await bodyOnly.close();
    }
  });

  it("close a connection that never sent a byte without an answer (nobody is waiting for one)", async () => {
    const connection = await openRawConnection(server.url);
    await expect(connection.readResponse()).rejects.toThrow(/closed before a whole response: ""/);
    expect(await connection.ended).toBe("end");
  });

  it("close an idle keep-alive connection, after telling the client how long it may stay idle", async () => {
    const connection = await openRawConnection(server.url);
    connection.write("GET /api/companies?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n");
    const response = await connection.readResponse();
    expect(response.status).toBe(200);
    expect(response.headers["keep-alive"]).toBe("timeout=1");
    expect(await connection.ended).toBe("end");
  });

  it("leave a request sent in time alone: a whole POST and the next request on the connection", async () => {
    const connection = await openRawConnection(server.url);
    connection.write(POST_HEAD + BODY);
    expect((await connection.readResponse()).status).toBe(200);
    connection.write("GET /api/companies?limit=1 HTTP/1.1\r\nHost: x\r\n\r\n");
    expect((await connection.readResponse()).status).toBe(200);
    connection.destroy();
  });
});
