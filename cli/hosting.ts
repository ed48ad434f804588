/**
 * `npm run hosting -- nginx --root DIR --listen ADDR [--upstream URL] [--brotli]`: prints the
 * nginx `server { }` block for a built dist, generated from the route table (core/hosting/nginx.ts).
 */
import { renderNginxServer } from "../core/hosting/nginx.ts";
import { runCommand } from "./command.ts";
import { HOSTING } from "./flag-table.ts";
import { resolveHostingOptions } from "./resolve-options.ts";

runCommand(HOSTING, (flags) => {
  const { root, listen, upstream, baseUrl } = resolveHostingOptions(flags);
  // --brotli only adds a directive: what the host has loaded is not ours to check here (nginx -t does).
  process.stdout.write(renderNginxServer({ root, listen, upstream, baseUrl, brotli: flags.values.brotli === true }).replace(/\n?$/, "\n"));
});
