/**
 * Change files (docs/change-feed.md): what turns one publish's dump into the next one's.
 *
 * A change file is a CSV whose first column, `change`, is `added`, `updated` or `removed`,
 * followed by exactly the dump's columns; rows are in the dump's order (its primary key: the
 * username, or the company id). Applying one to the previous dump — drop the rows it names, put
 * in its added and updated rows, keep the key order — gives the next dump byte for byte. Both
 * dumps are in key order, so a change file is one linear merge of the two, and the changes over
 * several publishes are one linear merge of their change files: nothing is ever held whole.
 */
import { compareCodePoints } from "../order.ts";
import { getFirstCell, type CsvRecord } from "./records.ts";

export type ChangeKind = "added" | "updated" | "removed";
export const CHANGE_KINDS: readonly ChangeKind[] = ["added", "updated", "removed"];

/** The two dumps that have change files, with the order of their primary key. */
export type ChangeDataset = "spammers" | "companies";
export const CHANGE_DATASETS: readonly ChangeDataset[] = ["spammers", "companies"];

/** Keys in the dump's order: usernames by code point, company ids as numbers. */
export const compareKeys: Record<ChangeDataset, (a: string, b: string) => number> = {
  spammers: compareCodePoints,
  companies: (a, b) => Number(a) - Number(b),
};

export interface Change {
  kind: ChangeKind;
  key: string;
  /** The dump's record (CRLF included) as it is now; for `removed`, the key and empty cells. */
  record: string;
}

export type ChangeCounts = Record<ChangeKind, number>;

/**
 * Files of a build that follow the publishes before it rather than its snapshot alone: the change
 * files, their index and feeds, and the data package that lists this publish's change files.
 */
export const isChangeFeedFile = (path: string) => path.startsWith("dumps/changes/") || path.startsWith("rss/changes.") || path.startsWith("dumps/datapackage.json");

/** The change file's header: `change`, then the dump's header (CRLF included). */
export const toChangeHeader = (dumpHeader: string) => `change,${dumpHeader}`;

/** A change as its change file's row. */
export const formatChange = (change: Change) => `${change.kind},${change.record}`;

/** The row a removed key leaves: the key, then as many empty cells as the dump has columns after it. */
export function toRemovedRecord(key: string, columns: number): string {
  return `${key}${",".repeat(columns - 1)}\r\n`;
}

/** A change file's row read back: its kind and the dump record it carries. */
export function parseChange(row: CsvRecord): Change {
  const kind = row.key;
  if (kind !== "added" && kind !== "updated" && kind !== "removed") throw new Error(`a change row must start with added, updated or removed, not ${JSON.stringify(kind.slice(0, 40))}`);
  const record = row.text.slice(kind.length + 1);
  return { kind, key: getFirstCell(record), record };
}

/**
 * The changes from one dump to the next, both as records in key order (the header first).
 * Throws when either is out of order or repeats a key: a merge over such input would be wrong.
 */
export function* diffDumps(previous: Iterable<CsvRecord>, next: Iterable<CsvRecord>, dataset: ChangeDataset, columns: number): Generator<Change> {
  const compare = compareKeys[dataset];
  const old = ordered(skipHeader(previous), compare, "previous dump");
  const now = ordered(skipHeader(next), compare, "new dump");
  let a = old.next();
  let b = now.next();
  while (!a.done || !b.done) {
    const order = a.done ? 1 : b.done ? -1 : compare(a.value.key, b.value.key);
    if (order < 0) {
      yield { kind: "removed", key: a.value!.key, record: toRemovedRecord(a.value!.key, columns) };
      a = old.next();
    } else if (order > 0) {
      yield { kind: "added", key: b.value!.key, record: b.value!.text };
      b = now.next();
    } else {
      if (a.value!.text !== b.value!.text) yield { kind: "updated", key: b.value!.key, record: b.value!.text };
      a = old.next();
      b = now.next();
    }
  }
}

/**
 * The changes over several publishes as one, from change files oldest first (rows only, each in
 * key order): for each key, the first change says whether it was in the oldest dump (`added`:
 * it was not), the last whether it is in the newest and with which row. Added then removed is
 * nothing; added then updated is added with the latest row; removed then added is updated.
 * A row changed and changed back within the span is `updated` with its row as it is now:
 * applying it is still exact.
 */
export function* composeChanges(files: Iterable<Change>[], dataset: ChangeDataset, columns: number): Generator<Change> {
  const compare = compareKeys[dataset];
  const cursors = files.map((file, i) => ({ rows: ordered(file, compare, `change file ${i + 1}`), head: null as Change | null, order: i }));
  for (const cursor of cursors) cursor.head = nextOf(cursor.rows);
  for (;;) {
    let key: string | null = null;
    for (const cursor of cursors) if (cursor.head && (key === null || compare(cursor.head.key, key) < 0)) key = cursor.head.key;
    if (key === null) return;
    let first: Change | null = null;
    let last: Change | null = null;
    // Cursors are oldest first, so the changes to one key are met in the order they were made.
    for (const cursor of cursors) {
      if (cursor.head?.key !== key) continue;
      first ??= cursor.head;
      last = cursor.head;
      cursor.head = nextOf(cursor.rows);
    }
    const before = first!.kind !== "added";
    const after = last!.kind !== "removed";
    if (before && after) yield { kind: "updated", key, record: last!.record };
    else if (after) yield { kind: "added", key, record: last!.record };
    else if (before) yield { kind: "removed", key, record: toRemovedRecord(key, columns) };
  }
}

/**
 * A change file applied to a dump (both in key order, the dump's header first): the next dump's
 * records. What a client does with the files; the tests hold the result to the real next dump.
 */
export function* applyChanges(dump: Iterable<CsvRecord>, changes: Iterable<Change>, dataset: ChangeDataset): Generator<string> {
  const compare = compareKeys[dataset];
  const rows = dump[Symbol.iterator]();
  const header = rows.next();
  if (header.done) throw new Error("the dump has no header row");
  yield header.value.text;
  let row = rows.next();
  for (const change of changes) {
    while (!row.done && compare(row.value.key, change.key) < 0) {
      yield row.value.text;
      row = rows.next();
    }
    const present = !row.done && compare(row.value.key, change.key) === 0;
    if (present === (change.kind === "added")) throw new Error(`${change.kind} ${JSON.stringify(change.key)}, which the dump ${present ? "has" : "lacks"}`);
    if (present) row = rows.next();
    if (change.kind !== "removed") yield change.record;
  }
  for (; !row.done; row = rows.next()) yield row.value.text;
}

/** Counts the changes passing through. */
export function* countChanges<T extends { kind: ChangeKind }>(changes: Iterable<T>, counts: ChangeCounts): Generator<T> {
  for (const change of changes) {
    counts[change.kind]++;
    yield change;
  }
}

export const noChanges = (): ChangeCounts => ({ added: 0, updated: 0, removed: 0 });

function nextOf(rows: Iterator<Change>): Change | null {
  const step = rows.next();
  return step.done ? null : step.value;
}

function* skipHeader(records: Iterable<CsvRecord>): Generator<CsvRecord> {
  let first = true;
  for (const record of records) {
    if (first) first = false;
    else yield record;
  }
}

/** Passes records through, throwing at the first that is not strictly after the one before. */
function* ordered<T extends { key: string }>(records: Iterable<T>, compare: (a: string, b: string) => number, what: string): Generator<T, undefined> {
  let previous: string | null = null;
  for (const record of records) {
    if (previous !== null && compare(previous, record.key) >= 0) {
      throw new Error(`the ${what} is not in key order: ${JSON.stringify(record.key.slice(0, 70))} comes after ${JSON.stringify(previous.slice(0, 70))}`);
    }
    previous = record.key;
    yield record;
  }
  return undefined;
}
