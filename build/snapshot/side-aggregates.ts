/**
 * Complaint aggregates per company and per person, and the odd reports without a username,
 * computed on another thread with its own read-only connection (query-worker.cjs) while the
 * username pass runs: sorting every report by company is a tenth of the build's SQLite time,
 * and nothing in the pass needs its answer.
 */
import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { BuildError } from "../errors.ts";
import { startWorker } from "../threads.ts";
import type { Snapshot } from "./open.ts";
import { categoryPositionSql, instantSql } from "./report-sql.ts";
import type { SideAnswer, SideQuery, SideWorkerData } from "./thread-protocol.ts";

/**
 * Complaint aggregates per company: [company_id, dated count, first, last, day offsets of the
 * reports since day-13 (comma-separated, 0 = day-13), category positions, smallest report id].
 * Unknown ids come back too, so the build can report them.
 */
export type CompanyAggregateRow = [number, number, number, number, string | null, string | null, number];
/** [person_id, count, smallest report id] for every person id that dated reports name. */
export type PersonCountRow = [number, number, number];
/**
 * Reports that name no username and cannot be dated or carry an unknown category (the
 * username pass counts those among reports that do name one): [id, created_at, category,
 * dated (0/1), category position].
 */
export type UnnamedOddityRow = [number, string, string | null, number, number | null];

export interface SideAggregates {
  companies: CompanyAggregateRow[];
  people: PersonCountRow[];
  oddities: UnnamedOddityRow[];
  /** [[count, smallest id, its confidence as text]] of the reports whose confidence is not an integer (text or a fraction in a loose export). */
  badConfidences: [[number, number | null, string | null]];
}

const sideAggregateQueries = (since: number): SideQuery[] => [
  {
    name: "companies",
    params: { since },
    // Each report's time is parsed once (the innermost subquery is not flattened, for its
    // LIMIT) and its day and category become small integers before the one sort, GROUP BY's:
    // sorting in the subquery as well, and sorting the category text, cost a quarter more.
    sql: `SELECT company_id, count(*), min(t), max(t), group_concat(day), group_concat(pos), min(id)
          FROM (SELECT company_id, id, t, CASE WHEN t >= @since THEN CAST((t - @since) / 86400 AS INTEGER) END AS day,
                  ${categoryPositionSql("category")} AS pos
                FROM (SELECT company_id, category, id, ${instantSql("created_at")} AS t FROM reports WHERE company_id IS NOT NULL LIMIT -1)
                WHERE t IS NOT NULL LIMIT -1)
          GROUP BY company_id ORDER BY company_id`,
  },
  {
    name: "people",
    params: {},
    sql: `SELECT person_id, count(*), min(id) FROM reports WHERE person_id IS NOT NULL AND ${instantSql("created_at")} IS NOT NULL
          GROUP BY person_id ORDER BY person_id`,
  },
  {
    name: "badConfidences",
    params: {},
    sql: `SELECT n, first, (SELECT CAST(confidence AS TEXT) FROM reports WHERE id = first)
          FROM (SELECT count(*) AS n, min(id) AS first FROM reports WHERE typeof(confidence) <> 'integer')`,
  },
  {
    name: "oddities",
    params: {},
    sql: `SELECT id, CAST(created_at AS TEXT), CAST(category AS TEXT), t IS NOT NULL, pos FROM (
            SELECT id, created_at, category, ${instantSql("created_at")} AS t, ${categoryPositionSql("category")} AS pos
            FROM reports WHERE username IS NULL ORDER BY id LIMIT -1)
          WHERE t IS NULL OR pos = 0 ORDER BY id`,
  },
];

/**
 * Starts the aggregates on their thread; `take()` waits for them (call it when the pass is over).
 * `since` is the start of day-13 in Unix seconds.
 */
export function startSideAggregates(db: Snapshot, since: number): { take(): SideAggregates } {
  const control = new SharedArrayBuffer(4);
  const answers = new Int32Array(control);
  const { port1, port2 } = new MessageChannel();
  const data: SideWorkerData = { path: db.name, queries: sideAggregateQueries(since), port: port2, control };
  const worker = startWorker(new URL("./query-worker.cjs", import.meta.url), data, [port2]);
  // A build that fails half-way must not wait for these queries to exit.
  worker.unref();
  return {
    take() {
      while (Atomics.load(answers, 0) === 0) Atomics.wait(answers, 0, 0, 1000);
      const message = receiveMessageOnPort(port1)?.message as SideAnswer | undefined;
      port1.close();
      if (!message || !("results" in message)) throw new BuildError(`reading company and person aggregates: ${message?.error ?? "the query thread stopped"}`);
      return message.results as unknown as SideAggregates;
    },
  };
}
