/**
 * Work an emitter can do before its turn, in the time the main thread would otherwise spend
 * waiting for the file writer. Writing a million check files is the writer thread's work (hashing,
 * creating files): the main thread serialises them faster than they are written, and waits with a
 * full queue for most of that step, one core idle. An emitter whose heavy part is computation
 * rather than files (the dump's CSV and gzip) hands it here as a generator that pauses every few
 * milliseconds; the disk writer runs a slice of it whenever its queue is full (disk-writer.ts),
 * and the emitter takes the result at its turn, finishing whatever is left.
 *
 * The build's bytes cannot depend on it: the work is a function of the model alone, and the
 * files it feeds are still handed to the writer at the emitter's turn, in the emitter's order,
 * so the manifest lists them where a build that did no work ahead lists them. Only when the work
 * is done moves.
 */
export class WorkAhead {
  private readonly queue: Task<unknown>[] = [];

  /**
   * Queues `work` (run in slices from now on, oldest first); the function returned finishes it
   * here and now if it is not finished yet, and gives its result (the same result each call).
   */
  add<T>(work: Generator<void, T, void>): () => T {
    const task: Task<T> = { work, done: false, result: undefined, error: null };
    this.queue.push(task as Task<unknown>);
    return () => {
      const at = this.queue.indexOf(task as Task<unknown>);
      if (at >= 0) this.queue.splice(at, 1);
      while (!task.done) runSlice(task);
      if (task.error) throw task.error.thrown;
      return task.result as T;
    };
  }

  /** Runs one slice of the oldest unfinished work: false when there is none. */
  step(): boolean {
    while (this.queue.length > 0 && this.queue[0]!.done) this.queue.shift();
    const task = this.queue[0];
    if (!task) return false;
    runSlice(task);
    return true;
  }
}

interface Task<T> {
  work: Generator<void, T, void>;
  done: boolean;
  result: T | undefined;
  /** What a slice threw: thrown to whoever ran that slice, and again to whoever takes the work. */
  error: { thrown: unknown } | null;
}

function runSlice<T>(task: Task<T>): void {
  let next: IteratorResult<void, T>;
  try {
    next = task.work.next();
  } catch (thrown) {
    task.done = true;
    task.error = { thrown };
    throw thrown;
  }
  if (next.done) {
    task.done = true;
    task.result = next.value;
  }
}

/** Runs `work` whole, here and now (an emitter run without work ahead). */
export function runNow<T>(work: Generator<void, T, void>): T {
  for (;;) {
    const next = work.next();
    if (next.done) return next.value;
  }
}
