/**
 * What a failed build leaves and says. Its staging folder goes: on a full disk at once, before the
 * error is reported, because the space it holds is exactly what the next try needs (a retry that
 * found the last one's files still there would fail the same way); otherwise in the background.
 * The previous dist is never touched (publishing undoes itself, build/publish.ts). A full disk is
 * said in one line that names the folder and the step, whichever thread or step hit it.
 */
import { BuildError, getErrorCodes, isNoSpace } from "./errors.ts";
import { discardUnpublished, type BuildsLayout } from "./publish.ts";

export function discardFailedBuild(layout: BuildsLayout, staging: string | null, error: unknown): BuildError {
  const noSpace = isNoSpace(error);
  let leftover = "";
  try {
    if (staging) discardUnpublished(layout, staging, { now: noSpace });
  } catch (cleanup) {
    leftover = `; the unfinished build in ${staging} could not be deleted (${describeError(cleanup)})`;
  }
  if (noSpace) {
    const where = getErrorCodes(error).includes("SQLITE_FULL") ? "for SQLite's temporary files" : `on the disk of ${layout.buildsDir}`;
    const step = getStep(error);
    const cleaned = leftover || (staging ? "; the unfinished build was deleted" : "");
    return new BuildError(
      `no space left ${where}${step ? ` (${step})` : ""}${cleaned}, ${layout.out} is as it was: free some space and build again`,
      { kind: "no-space", cause: error },
    );
  }
  if (error instanceof BuildError) return leftover ? new BuildError(error.message + leftover, { cause: error, kind: error.kind }) : error;
  return new BuildError(`build failed: ${describeError(error)}${leftover}`, { cause: error });
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What the build was doing, from a message like "writing api/check/x.json: ENOSPC: no space left
 * on device, write": the part before the system's own words, which the line says better.
 */
function getStep(error: unknown): string {
  const message = describeError(error);
  const at = message.search(/(^|: )(E[A-Z]+: |database or disk is full)/);
  return at <= 0 ? "" : message.slice(0, at);
}
