/**
 * api/check/{username}.json — one file per valid reported username, from the model's spammer
 * table (the body: build/api-json/check.ts).
 */
import { createFileFiller } from "../../core/routes/match.ts";
import { createCheckSerializer } from "../api-json/check.ts";
import type { EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";

const checkFile = createFileFiller("checkUsername");

export function* emitCheckFiles(ctx: EmitContext): Generator<OutputFile> {
  const serialize = createCheckSerializer(ctx.urls);
  for (const spammer of ctx.model.spammers.views()) {
    yield { path: checkFile(spammer.username), data: serialize(spammer) };
  }
}
