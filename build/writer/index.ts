/** The one writer of the build (STYLE: emitters return files, one writer puts them on disk). */
export { createDiskWriter, hashFile, MAX_BYTES_IN_FLIGHT, type DiskWriter } from "./disk-writer.ts";
export { hashContent, MANIFEST_PATH } from "./file-sink.cjs";
export { MemoryWriter } from "./memory-writer.ts";
export { UNCHANGED, type ChunkedData, type OutputFile, type Writer } from "./output.ts";
