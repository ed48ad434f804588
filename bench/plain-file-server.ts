/**
 * The serve benchmark's plain Node baseline for downloads: one file, streamed to every request with
 * `fs.createReadStream(…).pipe(response)` and nothing else (no routing, no ETag, no ranges) — what
 * Node itself allows for a large file, beside the live server and nginx. Prints its URL.
 * `node --import tsx bench/plain-file-server.ts FILE`
 */
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const file = process.argv[2];
if (!file) throw new Error("usage: bench/plain-file-server.ts FILE");
const size = statSync(file).size;
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/csv; charset=utf-8", "content-length": String(size) });
  createReadStream(file, { highWaterMark: 256 * 1024 }).pipe(response);
});
server.listen(0, "127.0.0.1", () => console.log(`serving ${file} at http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => process.exit(0));
