/** `npm run serve -- [options]`: serves a built dist until SIGTERM or SIGINT, then drains (cli/run-server.ts). */
import { runCommand } from "./command.ts";
import { SERVE } from "./flag-table.ts";
import { resolveServeOptions } from "./resolve-options.ts";
import { runServer } from "./run-server.ts";

runCommand(SERVE, (flags) => runServer(resolveServeOptions(flags)));
