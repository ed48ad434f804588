/**
 * `npm run deploy -- --to DIR [--dry-run] [--dist DIR]`: mirrors the current build into a folder
 * a static host serves, copying only what differs from the last deploy (cli/deploy/). Prints one
 * line of counts, or with `--dry-run` the plan as JSON (the same plan drives any other sync, an
 * object store's say).
 */
import { runCommand } from "./command.ts";
import { deployBuild, type DeploySummary } from "./deploy/run-deploy.ts";
import { DEPLOY } from "./flag-table.ts";
import { requireValue } from "./values.ts";

runCommand(DEPLOY, ({ values, label }) => {
  const to = requireValue(label("to"), values.to, DEPLOY.usage);
  const summary = deployBuild(values.dist, to, { dryRun: values["dry-run"] });
  process.stdout.write(values["dry-run"] ? `${JSON.stringify(formatPlan(summary), null, 1)}\n` : `${formatCounts(summary)}\n`);
});

function formatPlan({ build, target, plan }: DeploySummary) {
  return { build, target, unchanged: plan.unchanged, copy: plan.copy, remove: plan.remove };
}

function formatCounts({ target, plan, copied, inPlace, removed }: DeploySummary): string {
  const total = Object.values(copied).reduce((a, b) => a + b, 0);
  const byTier = Object.entries(copied)
    .filter(([, n]) => n > 0)
    .map(([tier, n]) => `${n} ${tier}`)
    .join(", ");
  const already = inPlace > 0 ? `, ${inPlace} already in place` : "";
  return `deployed to ${target}: ${total} copied${byTier ? ` (${byTier})` : ""}${already}, ${removed} deleted, ${plan.unchanged} unchanged`;
}
