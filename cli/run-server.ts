/**
 * The server as a process (`npm run serve`, the last step of `npm start`): prints its URL, and on
 * SIGTERM or SIGINT drains (server/connections.ts) and exits — 0 when every request was answered,
 * 1 when the drain timed out and requests were dropped. A second signal exits at once (1).
 *
 * npm starts the server through `sh -c`; the scripts `exec` node there (package.json), so the
 * server is npm's own child and gets the SIGTERM that npm forwards to its child. npm itself can
 * still die without forwarding (SIGKILL, the OOM killer): a server started by npm therefore also
 * drains when its parent goes, rather than serve on as an orphan nobody will stop.
 */
import type { LoadedBuild } from "../server/dist-source.ts";
import { startServer, type ServerOptions } from "../server/listen.ts";
import { createLog, formatCount } from "./log.ts";

/** How often a server started by npm looks whether npm is still its parent. */
const PARENT_CHECK_MS = 1000;

export async function runServer(options: ServerOptions): Promise<void> {
  const log = createLog("serve");
  const starting = startServer({ ...options, onBuildLoaded: (build) => log.info(describeLoadedBuild(build)) });
  let closing = false;
  const shutdown = (reason: string) => {
    if (closing) {
      log.info(`${reason} again: exiting without waiting`);
      return process.exit(1);
    }
    closing = true;
    clearInterval(watch);
    log.info(`${reason}: no new connections; answering the requests in flight (Connection: close)`);
    starting.then((server) => server.close()).then(
      ({ answered, dropped }) => {
        if (dropped > 0) log.info(`drain timed out: ${answered} answered, ${dropped} dropped`);
        else log.info(`drained: ${answered} answered`);
        process.exit(dropped > 0 ? 1 : 0);
      },
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  // Before the URL is printed: whoever waits for it may signal at once, and a signal arriving
  // before the handler would end the process without a drain.
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) shutdown(`npm (process ${parent}) is gone`);
  }, PARENT_CHECK_MS);
  // Only npm waits for its child to the end; under another parent, reparenting is no reason to stop.
  if (process.env.npm_lifecycle_event === undefined) clearInterval(watch);
  watch.unref();
  const server = await starting;
  console.log(`serving ${options.dist} at ${server.url}`);
}

/** `loaded build 5d71f1f49ca9f6f5: as of 2026-11-15T18:00:00Z, 19,981 usernames, 400 companies, 200 people, 170,394 reports`. */
function describeLoadedBuild({ id, asOf, counts }: LoadedBuild): string {
  const c = counts;
  return `loaded build ${id}: as of ${asOf}, ${formatCount(c.usernames)} usernames, ${formatCount(c.companies)} companies, ${formatCount(c.people)} people, ${formatCount(c.reports_read)} reports`;
}
