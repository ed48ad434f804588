/**
 * The build's one error type. It always says what the build was doing ("reading companies from
 * data/x.sqlite", "writing api/check/foo.json") and keeps the original error as `cause`.
 */
export class BuildError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BuildError";
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
