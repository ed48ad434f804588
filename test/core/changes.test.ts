/**
 * Change files (core/changes/): a diff of two dumps applied to the first gives the second, byte for
 * byte; the changes over several publishes composed equal the diff of the first and last dumps
 * (up to rows changed and changed back); records split right wherever the chunks are cut.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyChanges, composeChanges, diffDumps, formatChange, parseChange, toChangeHeader, type Change, type ChangeDataset } from "../../core/changes/merge.ts";
import { readCsvRecords } from "../../core/changes/records.ts";

const HEADER = "username,reports_count,note\r\n";
const dumpOf = (rows: Record<string, string>) =>
  HEADER +
  Object.keys(rows)
    .sort()
    .map((key) => `${key},${rows[key]}\r\n`)
    .join("");
const records = (text: string, cut = 7) => [...readCsvRecords(chunk(Buffer.from(text), cut))];
function* chunk(bytes: Buffer, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}
const diff = (a: string, b: string, dataset: ChangeDataset = "spammers") => [...diffDumps(chunk(Buffer.from(a), 7), chunk(Buffer.from(b), 7), dataset, 3)];
const apply = (dump: string, changes: Change[], dataset: ChangeDataset = "spammers") => [...applyChanges(records(dump), changes, dataset)].join("");
/** Changes through their file and back: what a client reads. */
const roundTrip = (changes: Change[]) => {
  const file = toChangeHeader(HEADER) + changes.map(formatChange).join("");
  return records(file).slice(1).map(parseChange);
};

describe("a change file", () => {
  it("lists added, updated and removed rows in key order, a removed one with its key and empty cells", () => {
    const before = dumpOf({ alice: '3,""quoted, with comma""', bob: "1,x", carol: "2,y" });
    const after = dumpOf({ alice: '3,""quoted, with comma""', bob: "2,x", dave: '1,"line\r\nbreak"' });
    const file = toChangeHeader(HEADER) + diff(before, after).map(formatChange).join("");
    expect(file).toBe('change,username,reports_count,note\r\nupdated,bob,2,x\r\nremoved,carol,,\r\nadded,dave,1,"line\r\nbreak"\r\n');
  });

  it("applied to the previous dump gives the next one byte for byte, whatever the two are", () => {
    const rows = fc.dictionary(fc.stringMatching(/^[a-z0-9_]{1,6}$/), fc.constantFrom("1,a", "2,b", '3,"q,""x"""', '4,"multi\r\nline"', "5,é"));
    fc.assert(
      fc.property(rows, rows, fc.integer({ min: 1, max: 40 }), (a, b, cut) => {
        const before = dumpOf(a);
        const after = dumpOf(b);
        const changes = roundTrip([...diffDumps(chunk(Buffer.from(before), cut), chunk(Buffer.from(after), cut), "spammers", 3)]);
        expect(apply(before, changes)).toBe(after);
      }),
      { numRuns: 200 },
    );
  });

  it("over several publishes, composed, turns the first dump into the last", () => {
    const rows = fc.dictionary(fc.stringMatching(/^[a-z]{1,3}$/), fc.constantFrom("1,a", "2,b", "3,c"));
    fc.assert(
      fc.property(fc.array(rows, { minLength: 1, maxLength: 6 }), (dumps) => {
        const texts = dumps.map(dumpOf);
        const files = texts.slice(1).map((text, i) => roundTrip(diff(texts[i]!, text)));
        const merged = [...composeChanges(files, "spammers", 3)];
        expect(apply(texts[0]!, merged)).toBe(texts.at(-1));
        // Nothing added then removed survives, and every merged change is one the diff makes, or a row changed back.
        const direct = new Map(diff(texts[0]!, texts.at(-1)!).map((c) => [c.key, c]));
        for (const change of merged) {
          if (direct.has(change.key)) expect(change).toEqual(direct.get(change.key));
          else expect(change.kind).toBe("updated");
        }
      }),
      { numRuns: 200 },
    );
  });

  it("composes added then removed to nothing, added then updated to added, removed then added to updated", () => {
    const add = (key: string, v: string): Change => ({ kind: "added", key, record: `${key},${v},\r\n` });
    const upd = (key: string, v: string): Change => ({ kind: "updated", key, record: `${key},${v},\r\n` });
    const del = (key: string): Change => ({ kind: "removed", key, record: `${key},,\r\n` });
    const merged = [...composeChanges([[add("a", "1"), add("b", "1"), del("c")], [del("a"), upd("b", "2"), add("c", "9")]], "spammers", 3)];
    expect(merged).toEqual([add("b", "2"), upd("c", "9")]);
  });

  it("orders company ids as numbers", () => {
    const before = "id,name\r\n2,b\r\n10,j\r\n";
    const after = "id,name\r\n2,b\r\n9,i\r\n10,k\r\n";
    expect(diff(before, after, "companies").map((c) => `${c.kind} ${c.key}`)).toEqual(["added 9", "updated 10"]);
  });

  it("splits records at CRLF outside quotes only, the same wherever the chunks are cut", () => {
    // Cells that test the scan: quotes doubled, CR, LF and CRLF inside quotes, a lone CR outside them.
    const cell = fc.constantFrom("a", "é", '"x"', '""""', '"a\r\nb"', '"\r"', '"\n"', '"""\r\n"""', "b\rc", "");
    const record = fc.array(cell, { minLength: 1, maxLength: 4 }).map((cells) => `k${cells.join(",")}\r\n`);
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 12 }), (list, cut) => {
        const text = list.join("");
        expect(records(text, cut).map((r) => r.text)).toEqual(list);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a dump out of key order, a cut record and a row of another kind", () => {
    expect(() => diff(HEADER + "b,1,x\r\na,1,x\r\n", HEADER)).toThrow(/not in key order/);
    // Rows that are the same bytes on both sides are compared as bytes, their keys still checked.
    expect(() => diff(HEADER + "b,1,x\r\na,1,x\r\n", HEADER + "b,1,x\r\na,1,x\r\n")).toThrow(/previous dump is not in key order/);
    expect(() => diff(HEADER + "a,1,x\r\nb,1,x\r\n", HEADER + "a,1,x\r\na,1,x\r\n")).toThrow(/new dump is not in key order/);
    expect(() => diff(HEADER + "a,1,x\r\na,1,x\r\n", HEADER + "a,1,x\r\na,1,x\r\n")).toThrow(/not in key order/);
    expect(() => diff(HEADER + "a,1,x\r\n", HEADER + "a,1,x")).toThrow(/ends inside a record/);
    expect(() => records(HEADER + "a,1,x")).toThrow(/ends inside a record/);
    expect(() => records("change,x\r\nmoved,a\r\n").slice(1).map(parseChange)).toThrow(/added, updated or removed/);
    expect(() => apply(dumpOf({ a: "1,x" }), [{ kind: "added", key: "a", record: "a,1,x\r\n" }])).toThrow(/which the dump has/);
  });
});
