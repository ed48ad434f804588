/**
 * The build's one error type. It always says what the build was doing ("reading companies from
 * data/x.sqlite", "writing api/check/foo.json") and keeps the original error as `cause`.
 *
 * Its `kind` tells the command what went wrong, so that it can say it in one line and pick the
 * exit status: `input` is a snapshot that cannot be built from as it is (a directory, a file that
 * is not SQLite, truncated or locked, a missing table or column), which no retry fixes; `no-space`
 * is a full disk, which freeing space fixes; `failed` is anything else.
 */
export type BuildErrorKind = "input" | "no-space" | "failed";

export class BuildError extends Error {
  readonly kind: BuildErrorKind;

  constructor(message: string, options?: { cause?: unknown; kind?: BuildErrorKind }) {
    super(message, options);
    this.name = "BuildError";
    this.kind = options?.kind ?? (isNoSpace(options?.cause) ? "no-space" : "failed");
  }
}

/** Runs `work`, wrapping anything it throws in a BuildError that names the step. */
export function withContext<T>(step: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof BuildError) throw error;
    throw new BuildError(`${step}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Error codes that mean the disk is full: ENOSPC (no space, or no inode, left), EDQUOT (the
 * user's quota is used up: the same remedy) and SQLite's own SQLITE_FULL (a temporary file).
 */
const NO_SPACE_CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);

/** Whether `error`, or any error in its `cause` chain, is a full disk. */
export function isNoSpace(error: unknown): boolean {
  if (error instanceof BuildError && error.kind === "no-space") return true;
  return getErrorCodes(error).some((code) => NO_SPACE_CODES.has(code));
}

/** The `code` of `error` and of every error in its `cause` chain (a few levels: causes do not nest deeper). */
export function getErrorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const { code } = e as NodeJS.ErrnoException;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}
