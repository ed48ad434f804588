/**
 * The username rows of an incremental build's report pass: the rows the previous build kept
 * (group-store.ts), but for the usernames the change touched, which SQLite aggregates again from
 * their reports, by the same aggregates as a full pass (snapshot/username-groups.ts). The pass
 * reads them in the same order and turns them into the same table, rejections and samples
 * included, as it does a full pass's rows.
 *
 * A username is read again when a report that names it (in any spelling) changed, appeared or
 * went: the report ranges whose digests changed are compared row by row with the kept report
 * rows (snapshot/row-keys.cjs), which say what each old report named. Every other username's
 * reports are the same rows as before, so its row is too, but for its trends when as_of moved:
 * those are counted again from the times the row keeps of its recent reports (moving forward), or
 * the username is read again if it has reports in the days the windows moved back over. A kept
 * row whose counts stayed is marked `unchanged`: it is the row the current build had.
 */
import { compareCodePoints } from "../../core/order.ts";
import { normalizeUsername } from "../../core/username.ts";
import type { SplitRows } from "../snapshot/digest.ts";
import { REPORT_RANGE_BITS } from "../snapshot/range-digest.cjs";
import { NULL_KEY, ROW_BYTES, usernameKey } from "../snapshot/row-keys.cjs";
import type { Snapshot } from "../snapshot/open.ts";
import { lookUpReports, readChosenUsernameGroups, selectSpelledUsernames, type GroupRow, type TrendWindows, type UsernameGroups } from "../snapshot/username-groups.ts";
import type { StoredGroupRow, StoredGroups, StoredReportRows } from "./group-store.ts";

/** What changed among the reports (compareReportRows). */
export interface ReportChanges {
  /** Keys of the usernames (any spelling) that reports gone or edited named. */
  keys: Set<number>;
  /** Normal forms that reports added or edited name. */
  normals: Set<string>;
  /** Their other spellings among those reports. */
  spellings: Map<string, Set<string>>;
}

/**
 * The pass's rows from the kept ones (`kept`) and what changed among the reports, and how many
 * usernames were read again.
 */
export function readChangedUsernameGroups(db: Snapshot, windows: TrendWindows, kept: StoredGroups, changes: ReportChanges): UsernameGroups & { reread: number } {
  const { keys, normals, spellings: newSpellings } = changes;
  const before = kept.windows;
  const sameWindows = before.previousStart === windows.previousStart && before.currentStart === windows.currentStart && before.currentEnd === windows.currentEnd;
  /** The windows moved back: a username with a report since the new start may have more in them. */
  const backFrom = windows.previousStart < before.previousStart ? windows.previousStart : Infinity;
  // The usernames to read again: those of changed reports, old (by key: a spelling's key may be shared, which only reads one more) and new.
  const chosen = new Set(normals);
  if (keys.size > 0) {
    for (const [normal, raws] of kept.spellings) if (raws.some((raw) => keys.has(usernameKey(raw)))) chosen.add(normal);
  }
  if (keys.size > 0 || backFrom !== Infinity) {
    for (const username of kept.pickUsernames((key, last) => last >= backFrom || keys.has(key))) chosen.add(username);
  }
  // Every spelling of each chosen username: the kept ones (all of the old snapshot's) and the changed reports' ones.
  const pairs: [string, string][] = [];
  const candidates: string[] = [];
  for (const normal of chosen) {
    pairs.push([normal, normal]);
    const raws = new Set([...(kept.spellings.get(normal) ?? []), ...(newSpellings.get(normal) ?? [])]);
    for (const raw of raws) {
      pairs.push([raw, normal]);
      candidates.push(raw);
    }
  }
  const spelled = selectSpelledUsernames(db, candidates);
  const spellingsOf = new Map<string, unknown[]>();
  for (const [normal, raws] of kept.spellings) if (!chosen.has(normal)) spellingsOf.set(normal, [normal, ...raws]);
  for (const [raw, normal] of pairs) {
    if (raw === normal || !spelled.has(raw)) continue;
    const list = spellingsOf.get(normal);
    if (list) list.push(raw);
    else spellingsOf.set(normal, [normal, raw]);
  }
  return {
    [Symbol.iterator]: () => mergeRows(kept.iterate(), readChosenUsernameGroups(db, windows, pairs), chosen, sameWindows ? null : windows),
    ...lookUpReports(db, spellingsOf),
    spellingsOf,
    reread: chosen.size,
    currentCompanies: kept.companies,
  };
}

/**
 * The changed ranges' reports against the kept ones, row by row: the keys of the usernames that
 * reports gone or edited named, and the normal forms (with their other spellings) that reports
 * added or edited name. A range gone from the snapshot has every report gone.
 */
export function compareReportRows(kept: StoredReportRows, split: SplitRows, ranges: Float64Array, usernameOf: (id: number) => unknown): ReportChanges {
  const keys = new Set<number>();
  const normals = new Set<string>();
  const spellings = new Map<string, Set<string>>();
  const place = new Int16Array(1 << REPORT_RANGE_BITS);
  let at = 0;
  const addGone = (old: Uint8Array, matched: Uint8Array | null) => {
    const view = new DataView(old.buffer, old.byteOffset, old.byteLength);
    for (let j = 0; j * ROW_BYTES < old.length; j++) {
      if (matched?.[j]) continue;
      const key = view.getUint32(j * ROW_BYTES + 9);
      if (key !== NULL_KEY) keys.add(key);
    }
  };
  for (let i = 0; i < split.ranges.length; i++) {
    const old = kept.block(split.ranges[i]!);
    const oldCount = old.length / ROW_BYTES;
    place.fill(-1);
    for (let j = 0; j < oldCount; j++) place[old[j * ROW_BYTES]!] = j;
    const matched = new Uint8Array(oldCount);
    const rangeStart = split.ranges[i]! * 2 ** REPORT_RANGE_BITS;
    for (let r = 0; r < split.counts[i]!; r++, at += ROW_BYTES) {
      const j = place[split.rows[at]!]!;
      if (j >= 0 && sameRow(old, j * ROW_BYTES, split.rows, at)) {
        matched[j] = 1;
        continue;
      }
      // A report added or edited: its username as the snapshot holds it (the split rows tell text from other values).
      const raw = usernameOf(rangeStart + split.rows[at]!);
      if (typeof raw !== "string") continue;
      const normal = normalizeUsername(raw);
      normals.add(normal);
      if (raw !== normal) {
        const set = spellings.get(normal);
        if (set) set.add(raw);
        else spellings.set(normal, new Set([raw]));
      }
    }
    addGone(old, matched);
  }
  const present = new Set(ranges);
  for (const range of kept.ranges) if (!present.has(range)) addGone(kept.block(range), null);
  return { keys, normals, spellings };
}

/** Whether the rows at `a` and `b` have the same place and the same two hashes. */
function sameRow(x: Uint8Array, a: number, y: Uint8Array, b: number): boolean {
  for (let n = 0; n < 9; n++) if (x[a + n] !== y[b + n]) return false;
  return true;
}

/**
 * The kept rows but the chosen usernames', and the rows read again, in username order (code
 * points, as the full pass orders them). When the windows moved forward, a kept row's trend
 * counts are made again from its recent report times, and only the times the new windows can
 * still reach are kept.
 */
function* mergeRows(kept: Generator<StoredGroupRow>, reread: Iterable<GroupRow>, chosen: ReadonlySet<string>, windows: TrendWindows | null): Generator<GroupRow> {
  const fresh = reread[Symbol.iterator]();
  let next = fresh.next();
  try {
    for (const row of kept) {
      if (chosen.has(row.username)) continue;
      while (!next.done && compareCodePoints(next.value.username, row.username) < 0) {
        yield next.value;
        next = fresh.next();
      }
      row.unchanged = !windows || row.recent === null || !recount(row, windows);
      yield row;
    }
    while (!next.done) {
      yield next.value;
      next = fresh.next();
    }
  } finally {
    fresh.return?.();
  }
}

/**
 * A kept row's trend counts in `windows`, from its recent report times (the SQL's count of
 * reports in each window); whether they changed.
 */
function recount(row: StoredGroupRow, windows: TrendWindows): boolean {
  let current = 0;
  let previous = 0;
  const still: string[] = [];
  const texts = row.recent!.split(",");
  const times = texts.length;
  for (const text of texts) {
    const t = Number(text);
    if (t < windows.previousStart) continue;
    still.push(text);
    if (t >= windows.currentStart && t < windows.currentEnd) current++;
    else if (t < windows.currentStart) previous++;
  }
  const changed = row.currentWeek !== current || row.previousWeek !== previous;
  if (!changed && still.length === times) return false;
  // Other values than the kept bytes: written anew for the next build (group-store.ts).
  row.bytesFrom = -1;
  row.currentWeek = current;
  row.previousWeek = previous;
  row.recent = still.length > 0 ? still.join(",") : null;
  return changed;
}
