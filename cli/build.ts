/** `npm run build -- [--db FILE] [--out DIR] [--base-url URL]`: compiles a snapshot into dist. */
import { runCommand } from "./command.ts";
import { BUILD } from "./flag-table.ts";
import { resolveBuildOptions } from "./resolve-options.ts";
import { runBuild } from "./run-steps.ts";

runCommand(BUILD, (flags) => void runBuild(resolveBuildOptions(flags)));
