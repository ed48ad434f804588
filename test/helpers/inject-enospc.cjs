// @ts-check
"use strict";
// A full disk, injected: loaded with `node --require` into a build process, this makes one kind of
// file-system call fail with ENOSPC, as the kernel would, for the disk-fault tests where no small
// tmpfs can be mounted (and for the one fault a real disk cannot aim: see test/cli/disk-faults.test.ts).
//
// INJECT_ENOSPC is `call:path-part:skip`: the first `skip` calls of that kind on a path containing
// `path-part` succeed, every later one fails. `call` is `write` (writeSync, writeFileSync),
// `mkdir` or `symlink` (the new link's own path). The build's worker threads are started from
// source text (build/threads.ts), so the patched Worker puts this file in front of that text: the
// writer's thread then fails the same way.
const fs = require("node:fs");
const { syncBuiltinESMExports } = require("node:module");
const workerThreads = require("node:worker_threads");

const [call = "", pathPart = "", skip = "0"] = (process.env.INJECT_ENOSPC ?? "").split(":");
let matched = 0;
/** @type {Map<number, string>} */
const openedPaths = new Map();

/** @param {string} kind @param {unknown} path */
function failIfAimed(kind, path) {
  if (kind !== call || !String(path).includes(pathPart)) return;
  if (matched++ < Number(skip)) return;
  const error = /** @type {NodeJS.ErrnoException} */ (new Error(`ENOSPC: no space left on device, ${kind}`));
  Object.assign(error, { code: "ENOSPC", errno: -28, syscall: kind });
  throw error;
}

/** @param {unknown} target a path or a descriptor */
const pathOf = (target) => (typeof target === "number" ? openedPaths.get(target) : target);

const { openSync, writeSync, writeFileSync, mkdirSync, symlinkSync } = fs;
Object.assign(fs, {
  /** @type {typeof fs.openSync} */
  openSync: (path, ...rest) => {
    const fd = openSync(path, ...rest);
    openedPaths.set(fd, String(path));
    return fd;
  },
  /** @param {number} fd @param {...any} rest */
  writeSync: (fd, ...rest) => {
    failIfAimed("write", pathOf(fd));
    return /** @type {(...args: any[]) => number} */ (writeSync)(fd, ...rest);
  },
  /** @type {typeof fs.writeFileSync} */
  writeFileSync: (file, ...rest) => {
    failIfAimed("write", pathOf(file));
    return writeFileSync(file, ...rest);
  },
  /** @param {fs.PathLike} path @param {...any} rest */
  mkdirSync: (path, ...rest) => {
    failIfAimed("mkdir", path);
    return /** @type {(...args: any[]) => string | undefined} */ (mkdirSync)(path, ...rest);
  },
  /** @type {typeof fs.symlinkSync} */
  symlinkSync: (target, path, ...rest) => {
    failIfAimed("symlink", path);
    return symlinkSync(target, path, ...rest);
  },
});

const { Worker } = workerThreads;
workerThreads.Worker = class extends Worker {
  /** @param {string | URL} source @param {import("node:worker_threads").WorkerOptions} [options] */
  constructor(source, options) {
    super(options?.eval ? `require(${JSON.stringify(__filename)});\n${source}` : source, options);
  }
};
// The build imports these as ES modules: their named exports must see the patched functions.
syncBuiltinESMExports();
