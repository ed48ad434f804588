/** `npm run sample -- [--scale N] [--seed S] [--out FILE] [--as-of T]`: writes a deterministic sample snapshot. */
import { runCommand } from "./command.ts";
import { SAMPLE } from "./flag-table.ts";
import { resolveSampleOptions } from "./resolve-options.ts";
import { runSample } from "./run-steps.ts";

runCommand(SAMPLE, (flags) => runSample(resolveSampleOptions(flags, flags.values.out)));
