/**
 * openapi.json and docs/index.html: the OpenAPI 3.1 document generated from the route table,
 * with a real answer of this build as each route's example (build/examples.ts), and the docs
 * page generated from that document. Runs after every emitter whose files the examples show.
 */
import { createOpenApiDocument } from "../../core/routes/openapi.ts";
import { getRouteFile } from "../../core/routes/match.ts";
import { formatDate } from "../../core/time.ts";
import { toJson, type EmitContext } from "../context.ts";
import { renderDocsBody } from "../html/docs.ts";
import { renderPage } from "../html/layout.ts";
import type { OutputFile } from "../writer/index.ts";

export function* emitApiDocs({ model, urls, examples }: EmitContext): Generator<OutputFile> {
  const answers = examples.answer(urls, model.asOfMs);
  const document = createOpenApiDocument({ baseUrl: urls.base, source: model.meta.get("source") ?? undefined, examples: answers });
  yield { path: getRouteFile("getOpenApi"), data: toJson(document) };
  const body = renderDocsBody(urls, document, answers);
  yield { path: getRouteFile("getDocs"), data: renderPage({ title: "API documentation", urls, asOf: formatDate(model.asOfMs), body }) };
}
