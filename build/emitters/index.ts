/**
 * The build's emitters, in the order they run. `check` must stay first: it drives the one pass
 * over reports that fills every aggregate the others read. Each line says what it writes.
 */
import type { EmitContext } from "../context.ts";
import type { OutputFile } from "../writer.ts";
import { emitCheckFiles } from "./check.ts";
import { emitCompanyList } from "./companies.ts";
import { emitCompanyCards, emitWidgets } from "./company.ts";
import { emitFingerprintIndex } from "./fingerprint.ts";
import { emitBuildReport } from "./report.ts";
import { emitSitePages } from "./site.ts";
import { emitSpammerLists } from "./spammers.ts";

export interface Emitter {
  name: string;
  writes: string;
  /**
   * Runs before any emitter emits: the place to register a spammer observer
   * (model.observeSpammers) for an emitter that needs every spammer but runs after the pass.
   */
  prepare?: (ctx: EmitContext) => void;
  emit: (ctx: EmitContext, onProgress?: (reports: number) => void) => Iterable<OutputFile>;
}

export const EMITTERS: Emitter[] = [
  { name: "check", writes: "api/check/{username}.json", emit: emitCheckFiles },
  { name: "spammers", writes: "api/spammers.json, api/spammers/top.json, api/spammers/category/{category}.json", emit: emitSpammerLists },
  { name: "company", writes: "api/company/{slug}.json", emit: emitCompanyCards },
  { name: "widget", writes: "api/widget/{slug}.json", emit: emitWidgets },
  { name: "companies", writes: "api/companies.json, api/companies/page/{n}.json, api/companies/all.json", emit: emitCompanyList },
  { name: "site", writes: "company/{slug}/index.html, companies/index.html, companies/page/{n}/index.html", emit: emitSitePages },
  { name: "fingerprint", writes: "fingerprint/index.json, fingerprint/profiles.json", emit: emitFingerprintIndex },
  { name: "report", writes: "build-report.json", emit: emitBuildReport },
];
