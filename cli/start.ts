/**
 * `npm start`: the whole loop on a fresh clone — make the sample snapshot if it is missing, build
 * dist from it, and serve it — taking every flag of the three commands it stands for.
 */
import { existsSync } from "node:fs";
import { runCommand } from "./command.ts";
import { START } from "./flag-table.ts";
import { createLog, formatCount } from "./log.ts";
import { resolveStartOptions } from "./resolve-options.ts";
import { runServer } from "./run-server.ts";
import { runBuild, runSample } from "./run-steps.ts";

runCommand(START, async (flags) => {
  const options = resolveStartOptions(flags);
  if (!existsSync(options.build.db)) {
    createLog("start").info(`no snapshot at ${options.build.db}; generating the sample (${formatCount(options.sample.scale)} usernames)…`);
    runSample(options.sample);
  }
  runBuild(options.build);
  await runServer(options.serve);
});
