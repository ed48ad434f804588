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
import { CsvRecordCursor, getFirstCell, type CsvRecord } from "./records.ts";

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
 * The changes from one dump to the next, both as CSV chunks (the header first), records in key
 * order. Throws when either is out of order or repeats a key: a merge over such input would be
 * wrong. A record that is the same bytes on both sides (most of them) is compared as bytes and
 * only its key decoded; the others are decoded whole.
 */
export function* diffDumps(previous: Iterable<Uint8Array>, next: Iterable<Uint8Array>, dataset: ChangeDataset, columns: number): Generator<Change> {
  const compare = compareKeys[dataset];
  const old = new KeyedCursor(previous, compare, "previous dump");
  const now = new KeyedCursor(next, compare, "new dump");
  try {
    let a = old.advance();
    let b = now.advance();
    while (a || b) {
      if (a && b && old.records.sameBytes(now.records)) {
        now.key(old.key());
        a = old.advance();
        b = now.advance();
        continue;
      }
      const order = !a ? 1 : !b ? -1 : compare(old.key(), now.key());
      if (order < 0) {
        yield { kind: "removed", key: old.key(), record: toRemovedRecord(old.key(), columns) };
        a = old.advance();
      } else if (order > 0) {
        yield { kind: "added", key: now.key(), record: now.records.text() };
        b = now.advance();
      } else {
        const text = now.records.text();
        if (old.records.text() !== text) yield { kind: "updated", key: now.key(), record: text };
        a = old.advance();
        b = now.advance();
      }
    }
  } finally {
    old.records.close();
    now.records.close();
  }
}

/** A dump's records after its header, each one's key checked to come strictly after the one before. */
class KeyedCursor {
  readonly records: CsvRecordCursor;
  /** The current record's key, once read; the last key read. */
  private current: string | null = null;
  private last: string | null = null;

  constructor(
    chunks: Iterable<Uint8Array>,
    private readonly compare: (a: string, b: string) => number,
    private readonly what: string,
  ) {
    this.records = new CsvRecordCursor(chunks);
    this.records.next();
  }

  /** Moves to the next record; false at the end. */
  advance(): boolean {
    this.current = null;
    return this.records.next();
  }

  /** The current record's key (`known`: the key of the same bytes, read already), checked once. */
  key(known?: string): string {
    if (this.current !== null) return this.current;
    const key = known ?? this.records.key();
    if (this.last !== null && this.compare(this.last, key) >= 0) {
      throw new Error(`the ${this.what} is not in key order: ${JSON.stringify(key.slice(0, 70))} comes after ${JSON.stringify(this.last.slice(0, 70))}`);
    }
    return (this.current = this.last = key);
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
