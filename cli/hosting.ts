/**
 * `npm run hosting -- nginx --root DIR --listen ADDR [--upstream URL]`: prints the nginx
 * `server { }` block for a built dist, generated from the route table (core/hosting/nginx.ts).
 */
import { renderNginxServer } from "../core/hosting/nginx.ts";
import { runCommand } from "./command.ts";
import { HOSTING } from "./flag-table.ts";
import { resolveHostingOptions } from "./resolve-options.ts";

runCommand(HOSTING, (flags) => {
  const { root, listen, upstream, baseUrl } = resolveHostingOptions(flags);
  process.stdout.write(renderNginxServer({ root, listen, upstream, baseUrl }).replace(/\n?$/, "\n"));
});
