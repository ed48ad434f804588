import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Byte arrays compared by their bytes (test/helpers/setup.ts).
    setupFiles: ["test/helpers/setup.ts"],
    // Every core, and two files at once on a machine of two: vitest's default leaves one core to
    // itself, which ran the suite one file at a time there, and most files spend their time
    // waiting on child processes, servers and disk (580 s one at a time, 370 s two at once).
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
