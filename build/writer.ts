/**
 * The one place files are put on disk (STYLE: emitters return files, one writer writes them).
 * Every file goes into the manifest with its size and SHA-256, streamed as it is written so the
 * manifest of a million files never sits in memory. A memory writer with the same interface lets
 * tests build without touching the disk.
 */
import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { BuildError } from "./errors.ts";

export interface OutputFile {
  /** Path inside dist, `/`-separated, e.g. `api/check/foo.json`. */
  path: string;
  data: string | Uint8Array;
}

export interface Writer {
  write(file: OutputFile): void;
  /** Writes the manifest (every file so far, plus `extra` fields) and closes the writer. */
  finish(extra: Record<string, unknown>): void;
  readonly fileCount: number;
  readonly byteCount: number;
}

/** Paths we emit are ASCII words separated by `/`; anything else is a bug or hostile data. */
const SAFE_PATH = /^(?:[A-Za-z0-9_][A-Za-z0-9._-]*\/)*[A-Za-z0-9_][A-Za-z0-9._-]*$/;
export const MANIFEST_PATH = "manifest.json";
const FLUSH_AT = 1 << 20;

export function hashContent(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

abstract class ManifestWriter implements Writer {
  fileCount = 0;
  byteCount = 0;
  private pending: string[] = [];
  private pendingLength = 0;

  write(file: OutputFile): void {
    if (!SAFE_PATH.test(file.path) || file.path.includes("..") || file.path === MANIFEST_PATH) {
      throw new BuildError(`refusing to write unsafe path ${JSON.stringify(file.path)}`);
    }
    const data = typeof file.data === "string" ? Buffer.from(file.data) : file.data;
    this.store(file.path, data);
    const line = `${this.fileCount === 0 ? "" : ",\n"}{"path":${JSON.stringify(file.path)},"size":${data.byteLength},"sha256":"${hashContent(data)}"}`;
    this.pending.push(line);
    this.pendingLength += line.length;
    this.fileCount++;
    this.byteCount += data.byteLength;
    if (this.pendingLength >= FLUSH_AT) this.flush();
  }

  finish(extra: Record<string, unknown>): void {
    this.flush();
    const fields = Object.entries({ ...extra, file_count: this.fileCount, byte_count: this.byteCount })
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
      .join(",");
    this.appendManifest(`\n],${fields}}\n`);
    this.closeManifest();
  }

  protected flush(): void {
    if (this.pending.length === 0) return;
    this.appendManifest(this.pending.join(""));
    this.pending = [];
    this.pendingLength = 0;
  }

  protected abstract store(path: string, data: Uint8Array): void;
  protected abstract appendManifest(text: string): void;
  protected abstract closeManifest(): void;
}

class DiskWriter extends ManifestWriter {
  private readonly madeDirs = new Set<string>();
  private readonly manifestFd: number;

  constructor(private readonly root: string) {
    super();
    mkdirSync(root, { recursive: true });
    this.manifestFd = openSync(join(root, MANIFEST_PATH), "w");
    this.appendManifest('{"files":[\n');
  }

  protected store(path: string, data: Uint8Array): void {
    const target = join(this.root, path);
    const dir = dirname(target);
    try {
      if (!this.madeDirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        this.madeDirs.add(dir);
      }
      writeFileSync(target, data);
    } catch (error) {
      throw new BuildError(`writing ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  protected appendManifest(text: string): void {
    writeSync(this.manifestFd, text);
  }

  protected closeManifest(): void {
    closeSync(this.manifestFd);
  }
}

export class MemoryWriter extends ManifestWriter {
  readonly files = new Map<string, Buffer>();
  private manifest = '{"files":[\n';

  protected store(path: string, data: Uint8Array): void {
    this.files.set(path, Buffer.from(data));
  }

  protected appendManifest(text: string): void {
    this.manifest += text;
  }

  protected closeManifest(): void {
    this.files.set(MANIFEST_PATH, Buffer.from(this.manifest));
  }
}

export function createDiskWriter(root: string): Writer {
  return new DiskWriter(root);
}
