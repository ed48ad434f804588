/**
 * The open-data licence (reference: "Data license: Creative Commons Attribution 4.0; users are
 * asked to credit the source") and the credit line that every feed and every dump carries. The
 * source is the snapshot's `meta.source`; the deployment's base URL says where the data lives.
 */
import { removeControlCharacters } from "../../core/escape.ts";
import type { EmitContext } from "../context.ts";

export const LICENSE = {
  /** SPDX identifier, as Frictionless `licenses[].name` expects. */
  id: "CC-BY-4.0",
  title: "Creative Commons Attribution 4.0 International",
  url: "https://creativecommons.org/licenses/by/4.0/",
} as const;

/** Used when a snapshot has no `meta.source`: the data must still name someone to credit. */
const FALLBACK_SOURCE = "Spam-report and company-catalog API";

export interface Credit {
  /** Who to credit: the snapshot's source, without control characters. */
  source: string;
  /** Where the data is published: the deployment's base URL. */
  home: string;
  /** "Data: {source} ({home}), licensed under CC BY 4.0 ({url})." */
  line: string;
  /** The short rights statement for feeds (RSS `copyright`, Atom `rights`). */
  rights: string;
}

export function getCredit({ model, urls }: EmitContext): Credit {
  const source = removeControlCharacters(model.meta.get("source") ?? "").trim() || FALLBACK_SOURCE;
  const home = urls.home();
  return {
    source,
    home,
    line: `Data: ${source} (${home}), licensed under CC BY 4.0 (${LICENSE.url}).`,
    rights: `${source}, CC BY 4.0 (${LICENSE.url})`,
  };
}

/** dumps/LICENSE.txt: what the files are, the licence, and how to credit them. */
export function renderLicenseText(credit: Credit): string {
  return [
    "Open data dump: reported usernames and companies with complaints",
    "",
    `The files in this folder are licensed under the ${LICENSE.title} licence (CC BY 4.0):`,
    LICENSE.url,
    "",
    "You may share and adapt them for any purpose, also commercially, as long as you give",
    "appropriate credit, link to the licence and say whether you made changes. Credit line:",
    "",
    `  ${credit.line}`,
    "",
    "A username or company listed here was named in complaints; it is not a verdict, and absence",
    "from the files does not mean an account is clean. Column descriptions: datapackage.json.",
    "",
  ].join("\n");
}
