/** openapi.json and docs/index.html, generated from the route table. */
import { createOpenApiDocument } from "../../core/routes/openapi.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { toJson, type EmitContext } from "../context.ts";
import type { OutputFile } from "../writer.ts";

export function* emitApiDocs({ model, urls }: EmitContext): Generator<OutputFile> {
  const document = createOpenApiDocument({ baseUrl: urls.base, source: model.meta.get("source") ?? undefined });
  yield { path: getRouteFile("getOpenApi"), data: toJson(document) };
}
