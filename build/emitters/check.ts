/**
 * api/check/{username}.json — one file per valid reported username, from the model's spammer
 * table (the body: build/api-json/check.ts). An incremental build hands over a row it kept
 * unchanged as UNCHANGED: most of a day's usernames, whose files the writer keeps or links.
 */
import { createFileFiller } from "../../core/routes/match.ts";
import { createCheckSerializer } from "../api-json/check.ts";
import { makeUnlessUnchanged, type EmitContext } from "../context.ts";
import { createEmptySpammer } from "../model/spammer-table.ts";
import type { OutputFile } from "../writer/index.ts";

const checkFile = createFileFiller("checkUsername");

export function* emitCheckFiles(ctx: EmitContext): Generator<OutputFile> {
  const serialize = createCheckSerializer(ctx.urls);
  const table = ctx.model.spammers;
  const view = createEmptySpammer();
  for (let row = 0; row < table.size; row++) {
    // A row the current build had, showing its companies alike: that build's file, not made again.
    yield makeUnlessUnchanged(ctx, table.unchanged(row), checkFile(table.username(row)), () => serialize(table.fill(view, row)));
  }
}
