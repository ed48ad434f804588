/**
 * The build's worker threads (the username pass's query thread, the aggregates thread, the file
 * writer) are plain CommonJS started from source text with no inherited flags. A TypeScript
 * runner's ESM loader hooks would otherwise serve the worker's imports from a thread that the
 * build blocks in `Atomics.wait` while it waits for the worker: the two would wait on each other.
 * The scripts are still type-checked: `// @ts-check` with JSDoc types imported from the
 * protocol module beside each, which the TypeScript side imports too.
 */
import { Worker, type Transferable } from "node:worker_threads";
import { fileURLToPath } from "node:url";

export function startWorker(script: URL, workerData: unknown, transferList: readonly Transferable[] = []): Worker {
  return new Worker(`require(${JSON.stringify(fileURLToPath(script))})`, {
    eval: true,
    execArgv: [],
    workerData,
    transferList: [...transferList],
  });
}
