/**
 * A build's search indexes load after the rest of it (server/search-state.ts): the build is
 * served before they are read, and the search routes wait for them.
 */
import { realpathSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app.ts";
import { loadBuildState } from "../../server/dist-source.ts";
import { buildFixture, type BuiltFixture } from "../helpers/fixture.ts";

let fixture: BuiltFixture;
beforeAll(() => {
  fixture = buildFixture("search-state");
});
afterAll(() => fixture.cleanup());

describe("the search indexes of a loaded build", () => {
  it("are not loaded when the build is, and are once ready settles", async () => {
    const state = await loadBuildState(realpathSync(fixture.dist));
    expect(state.search.now).toBeUndefined();
    const search = await state.search.ready;
    expect(search).not.toBeNull();
    expect(state.search.now).toBe(search);
  });

  it("are waited for by a search asked before they are loaded", async () => {
    const app = createApp({ dist: fixture.dist });
    const [check, found] = await Promise.all([app.request("/build-report.json"), app.request("/api/search/global?q=spam")]);
    expect([check.status, found.status]).toEqual([200, 200]);
    const answer = (await found.json()) as { query: string; total: number };
    expect(answer.query).toBe("spam");
    expect(answer.total).toBeGreaterThan(0);
  });
});
