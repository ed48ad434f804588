/**
 * What the route table costs. Two figures, each beside a baseline measured in the same run:
 *
 * - Per request: the live app answers file routes by matching the URL against the table's
 *   templates (only the routes that share the router pattern), then reading the file. The
 *   baseline is a bare h3 app with one hand-written route per kind that reads the same file and
 *   answers through the same response helper: the difference is the table's dispatch. Both run
 *   in-process (`app.request`, no sockets), interleaved in rounds, so the machine's noise hits
 *   both alike.
 * - Per build: the docs step (real examples, openapi.json, docs/index.html) beside the whole build.
 *
 * Run: npm run bench -- --only routes [--scale N]
 */
import { join } from "node:path";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { H3 } from "h3";
import { buildDist } from "../build/build.ts";
import { generateSample } from "../data/sample/generate.ts";
import { createApp } from "../server/app.ts";
import { loadBuildState } from "../server/dist-source.ts";
import { readBuildFile, sendRouteFile } from "../server/files.ts";
import { getRoute, type RouteId } from "../core/routes/table.ts";
import { fillTemplate } from "../core/routes/templates.ts";
import type { BenchRow } from "./build.ts";

interface Kind {
  label: string;
  id: RouteId;
  params: Record<string, string>;
}

export async function runRoutesBench(options: { scale: number; workDir: string }): Promise<BenchRow[]> {
  rmSync(options.workDir, { recursive: true, force: true });
  mkdirSync(options.workDir, { recursive: true });
  const db = join(options.workDir, "sample.sqlite");
  generateSample({ scale: options.scale, seed: "1", out: db, asOf: "2026-11-15T18:00:00Z" });
  const started = performance.now();
  const summary = buildDist({ db, out: join(options.workDir, "dist"), baseUrl: "http://localhost:3000", progress: null });
  const buildSeconds = (performance.now() - started) / 1000;
  try {
    const root = summary.buildDir;
    const report = JSON.parse(readFileSync(join(root, "build-report.json"), "utf8")) as { counts: { usernames: number } };
    const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8")) as { files: { path: string }[] };
    const first = (prefix: string, suffix: string) => {
      const file = manifest.files.find((f) => f.path.startsWith(prefix) && f.path.endsWith(suffix));
      if (!file) throw new Error(`routes bench: the build has no ${prefix}…${suffix}`);
      return file.path.slice(prefix.length, file.path.length - suffix.length);
    };
    const slug = first("api/company/", ".json");
    const kinds: Kind[] = [
      { label: "GET /api/badge/{slug}.svg", id: "getBadge", params: { slug } },
      { label: "GET /embed/{style}/{slug}", id: "getEmbed", params: { style: "badge", slug } },
      { label: "GET /rss/category/{category}.atom", id: "getCategoryFeedAtom", params: { category: "crypto" } },
      { label: "GET /api/detection-rules", id: "getDetectionRules", params: {} },
    ];
    const live = createApp({ dist: join(options.workDir, "dist") });
    const bare = new H3();
    const state = await loadBuildState(root);
    for (const kind of kinds) {
      const route = getRoute(kind.id);
      const file = fillTemplate(route.file!, kind.params);
      const url = fillTemplate(route.path, kind.params, true);
      bare.get(url, async (event) => sendRouteFile(event.req, state, route, (await readBuildFile(state, file))!));
    }
    const urls = kinds.map((k) => fillTemplate(getRoute(k.id).path, k.params, true));
    // Both must answer every kind with the same bytes before anything is timed.
    for (const url of urls) {
      const [a, b] = await Promise.all([live.request(url), bare.request(url)]);
      const [ab, bb] = await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
      if (a.status !== 200 || b.status !== 200 || !Buffer.from(ab).equals(Buffer.from(bb))) throw new Error(`routes bench: ${url} answered differently`);
    }
    const perRound = 2000;
    const rounds = 5;
    const seconds = { live: 0, bare: 0 };
    for (let round = 0; round < rounds; round++) {
      for (const [name, app] of [["live", live], ["bare", bare]] as const) {
        const t0 = performance.now();
        for (let i = 0; i < perRound; i++) await (await app.request(urls[i % urls.length]!)).arrayBuffer();
        seconds[name] += (performance.now() - t0) / 1000;
      }
    }
    const requests = perRound * rounds;
    const rate = (s: number) => Math.round(requests / s);
    const docs = summary.timings.docs ?? 0;
    return [
      {
        metric: `file routes through the table (${kinds.length} kinds, in-process)`,
        value: `${rate(seconds.live).toLocaleString("en")} req/s`,
        baseline: `bare h3, one route per kind: ${rate(seconds.bare).toLocaleString("en")} req/s`,
        ratio: `${(seconds.bare / seconds.live).toFixed(2)}×`,
        target: "",
      },
      {
        metric: `docs step (examples, openapi.json, docs page), ${report.counts.usernames.toLocaleString("en")} usernames`,
        value: `${docs.toFixed(2)} s`,
        baseline: `whole build ${buildSeconds.toFixed(1)} s`,
        ratio: `${((docs / buildSeconds) * 100).toFixed(1)} %`,
        target: "",
      },
    ];
  } finally {
    rmSync(options.workDir, { recursive: true, force: true });
  }
}
