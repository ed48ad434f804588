/** `npm run serve -- [--dist DIR] [--port N] [--host H] [--trust-proxy] [--read-limit N]`: serves a built dist. */
import { serve } from "../server/listen.ts";
import { runCommand } from "./command.ts";
import { SERVE } from "./flag-table.ts";
import { resolveServeOptions } from "./resolve-options.ts";

runCommand(SERVE, (flags) => serve(resolveServeOptions(flags)));
