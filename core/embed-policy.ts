/**
 * The content security policy of the embeds (/embed/{style}/{slug}), in one place for the build,
 * which writes it into each file as a meta tag (so static hosts carry it too), and the server,
 * which also sends it as a header. Only a header can say who may frame a page, so the header
 * adds `frame-ancestors *`: any site may embed the widgets (and no X-Frame-Options forbids it).
 */
export const EMBED_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

export const EMBED_CSP_HEADER = `${EMBED_CSP}; frame-ancestors *`;
