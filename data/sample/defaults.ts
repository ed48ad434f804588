/**
 * The sample's defaults that commands name in their flags: apart from the generator, so that a
 * command that only lists its flags (the server's) does not load the generator and SQLite.
 */

/** The sample snapshot's "now" (meta `as_of`) unless `--as-of` says otherwise. */
export const DEFAULT_AS_OF = "2026-11-15T18:00:00Z";
