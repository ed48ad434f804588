/**
 * The build's emitters, in the order they run. Each is a function of the finished model
 * (build/model/) and writes only its own files, so the order is free but for one rule: `docs`
 * shows real answers of this build, kept from the files the emitters before it wrote
 * (build/examples.ts), so it runs after every emitter whose files it shows. Each line says what
 * it writes.
 */
import type { EmitContext } from "../context.ts";
import type { OutputFile } from "../writer/index.ts";
import { emitBadges } from "./badges.ts";
import { emitChatStatuses } from "./chats.ts";
import { emitCheckFiles } from "./check.ts";
import { emitCompanyList } from "./companies.ts";
import { emitCompanyCards, emitWidgets } from "./company.ts";
import { emitDetectionRules } from "./detection-rules.ts";
import { emitDump } from "./dump.ts";
import { emitFeeds } from "./feeds.ts";
import { emitFingerprintIndex } from "./fingerprint.ts";
import { emitBuildReport } from "./report.ts";
import { emitSearchIndexes } from "./search.ts";
import { emitEmbeds } from "./embeds.ts";
import { emitSitePages } from "./site.ts";
import { emitContentPages } from "./site-content.ts";
import { emitHomePages } from "./site-home.ts";
import { emitSpammerLists } from "./spammers.ts";
import { emitHostConfig } from "./host-config.ts";
import { emitApiDocs } from "./docs.ts";

export interface Emitter {
  name: string;
  writes: string;
  emit: (ctx: EmitContext) => Iterable<OutputFile>;
}

export const EMITTERS: Emitter[] = [
  { name: "check", writes: "api/check/{username}.json", emit: emitCheckFiles },
  {
    name: "spammers",
    writes: "api/spammers/ranking.bin, api/spammers.json, api/spammers/page/{n}.json (the first --list-pages), api/spammers/top.json, api/spammers/category/{category}.json, …/{category}/page/{n}.json, …/{category}/top.json",
    emit: emitSpammerLists,
  },
  { name: "company", writes: "api/company/{slug}.json", emit: emitCompanyCards },
  { name: "widget", writes: "api/widget/{slug}.json", emit: emitWidgets },
  { name: "companies", writes: "api/companies.json, api/companies/page/{n}.json, api/companies/all.json", emit: emitCompanyList },
  { name: "badges", writes: "api/badge/{slug}.svg, api/badge/{slug}.json (shields endpoint), api/card/{slug}.svg, 404.svg", emit: emitBadges },
  { name: "chats", writes: "api/chat/{username}/status.json, api/chat/{username}/badge.svg", emit: emitChatStatuses },
  { name: "detection-rules", writes: "api/detection-rules.json", emit: emitDetectionRules },
  { name: "feeds", writes: "rss/all.rss, rss/all.atom, rss/all.feed.json, rss/category/{category}.{rss,atom,feed.json}", emit: emitFeeds },
  { name: "dump", writes: "dumps/{spammers,companies}-{YYYY}-W{ww}.csv, dumps/{spammers,companies}-latest.csv, dumps/spammers-new-{YYYY}-W{ww}.csv, a .gz beside each, dumps/LICENSE.txt, dumps/index.json, dumps/index.html", emit: emitDump },
  { name: "site", writes: "company/{slug}.html, companies/index.html, companies/page/{n}/index.html", emit: emitSitePages },
  { name: "pages", writes: "people/{slug}.html, avatars/{slug}.svg, glossary/, videos/, video-channels/, channels/, chats/, blog/ {slug or username}.html", emit: emitContentPages },
  { name: "home", writes: "index.html (landing page), 404.html (the pages' not-found page)", emit: emitHomePages },
  { name: "embeds", writes: "embed/{style}/{slug}.html, embed/404.html", emit: emitEmbeds },
  { name: "fingerprint", writes: "fingerprint/index.json, fingerprint/profiles.json", emit: emitFingerprintIndex },
  { name: "search", writes: "search/global.json, search/global.bin, search/live.json, search/live.bin", emit: emitSearchIndexes },
  { name: "host-config", writes: "_headers, _redirects (Netlify / Cloudflare Pages rules generated from the route table)", emit: emitHostConfig },
  { name: "docs", writes: "openapi.json, docs/index.html (generated from the route table, with real answers of this build)", emit: emitApiDocs },
  { name: "report", writes: "build-report.json", emit: emitBuildReport },
];

/**
 * After them all, once the build id is sealed (build/changes/build-id.ts), the change feed
 * (changes.ts): its files depend on the publish before this one and are named by the id.
 */
export const CHANGES_WRITES =
  "dumps/changes/{build}.csv, dumps/changes/{build}-companies.csv, a .gz beside each (and the retained publishes' ones), dumps/changes/index.json, dumps/changes/expired.json, rss/changes.{rss,atom,feed.json}, dumps/datapackage.json";
