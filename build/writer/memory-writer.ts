import { listVariantEncodings } from "../../core/routes/variants.ts";
import { FileSink, MANIFEST_PATH } from "./file-sink.cjs";
import { checkPath, toBytes, type OutputFile, type Writer } from "./output.ts";

/** Keeps every file in memory (tests build without touching the disk), with the same manifest. */
export class MemoryWriter implements Writer {
  readonly files = new Map<string, Buffer>();
  readonly writeSeconds = 0;
  private manifest = "";
  private readonly sink = new FileSink(
    (path, data) => this.files.set(path, Buffer.from(data)),
    (text) => (this.manifest += text),
  );

  get fileCount(): number {
    return this.sink.fileCount;
  }

  get byteCount(): number {
    return this.sink.byteCount;
  }

  write(file: OutputFile): void {
    checkPath(file.path);
    const data = toBytes(file.data);
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    this.sink.write(file.path, bytes, listVariantEncodings(file.path, bytes.byteLength));
  }

  seal(): { sha256: string; bytes: number } {
    return this.sink.seal();
  }

  finish(extra: Record<string, unknown>): void {
    this.sink.finish(extra);
    this.files.set(MANIFEST_PATH, Buffer.from(this.manifest));
  }

  abort(): void {}
}

