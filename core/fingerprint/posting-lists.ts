/**
 * Posting lists as the matcher reads them, built once at load time from the index's per-value
 * postings. Two kinds of list share one set of arrays:
 *
 *   list v (0 ≤ v < values)  the profiles holding value v;
 *   list v ≥ values          the profiles holding *both* values of a pair of long values (lists
 *                            with more than LONG_LIST_LENGTH profiles), of different keys.
 *
 * Pair lists let the matcher reach profiles that agree on two common values (say Chrome's JA4
 * and a Windows JA4T) without reading either common list. Only long values get pairs: a short
 * list is cheap to read whole, and reading it scores its profiles against every key anyway.
 *
 * Each list is split into groups of profiles with the same key mask, and each group into runs
 * of one kind; groups are ordered by their best rank, runs within a group too, positions
 * ascending (best rank first) within a run:
 *   groups of list l:     listGroupStart[l] .. listGroupStart[l+1]
 *   key mask of group g:  groupMask[g]
 *   runs of group g:      groupRunStart[g] .. groupRunStart[g+1]
 *   kind of run r:        runKind[r] (index into PROFILE_KINDS)
 *   positions of run r:   postings[runStart[r] .. runStart[r+1]]
 * The mask bounds a group's fit, computed once per group. The kind says whether a profile could
 * still be the best candidate of another kind than the answer's (confidence.ts), which the
 * matcher must find: runs let it skip the rest of a kind at once, however long the list.
 */
/** A value held by more profiles than this is "long" and takes part in pair lists. */
const LONG_LIST_LENGTH = 32;

export interface PostingLists {
  listLength: Int32Array;
  listGroupStart: Int32Array;
  groupMask: Uint16Array;
  groupRunStart: Int32Array;
  runKind: Uint8Array;
  runStart: Int32Array;
  postings: Int32Array;
  /** Index of each value among the long values, or -1 for a short one. */
  longIndex: Int32Array;
  longCount: number;
  /**
   * Open-addressing hash table of the pair lists, three numbers per slot: longIndex(a),
   * longIndex(b) with the first smaller (-1 marks an empty slot), and the list id. Typed arrays
   * rather than a Map: this is probed up to 36 times per match.
   */
  pairSlots: Int32Array;
  pairSlotMask: number;
}

/** The pair list of two long values (by long index, first < second), or -1 if nobody holds both. */
export function findPairList(lists: PostingLists, first: number, second: number): number {
  const { pairSlots, pairSlotMask } = lists;
  for (let slot = hashPair(first, second) & pairSlotMask; ; slot = (slot + 1) & pairSlotMask) {
    const at = slot * 3;
    if (pairSlots[at] === -1) return -1;
    if (pairSlots[at] === first && pairSlots[at + 1] === second) return pairSlots[at + 2]!;
  }
}

function hashPair(first: number, second: number): number {
  return (Math.imul(first, 0x9e3779b1) ^ Math.imul(second + 1, 0x85ebca77)) >>> 7;
}

/**
 * @param valueLists    positions holding each value, ascending
 * @param valueKey      key bit of each value
 * @param valuesOfProfile value ids held by each position
 * @param profileKeyMask  key mask of each position
 * @param profileKind     kind of each position
 */
export function createPostingLists(
  valueLists: readonly number[][],
  valueKey: Uint8Array,
  valuesOfProfile: readonly number[][],
  profileKeyMask: Uint16Array,
  profileKind: Uint8Array,
): PostingLists {
  const longIndex = new Int32Array(valueLists.length).fill(-1);
  let longCount = 0;
  valueLists.forEach((positions, valueId) => {
    if (positions.length > LONG_LIST_LENGTH) longIndex[valueId] = longCount++;
  });

  // Positions are visited in ascending order, so every pair list comes out ascending too.
  const pairPositions = new Map<number, number[]>();
  valuesOfProfile.forEach((values, position) => {
    const longs = values.filter((valueId) => longIndex[valueId]! >= 0).sort((a, b) => longIndex[a]! - longIndex[b]!);
    for (let i = 0; i < longs.length; i++) {
      for (let j = i + 1; j < longs.length; j++) {
        const a = longs[i]!, b = longs[j]!;
        if (valueKey[a] === valueKey[b]) continue; // a request sends one value per key
        const pairKey = longIndex[a]! * longCount + longIndex[b]!;
        const list = pairPositions.get(pairKey);
        if (list) list.push(position);
        else pairPositions.set(pairKey, [position]);
      }
    }
  });

  // At most half full, so probes stay short and always reach an empty slot.
  const slotCount = 2 ** Math.ceil(Math.log2(2 * pairPositions.size + 2));
  const pairSlots = new Int32Array(slotCount * 3).fill(-1);
  const lists: number[][] = [...valueLists];
  for (const [pairKey, positions] of pairPositions) {
    const first = Math.floor(pairKey / longCount), second = pairKey % longCount;
    let slot = hashPair(first, second) & (slotCount - 1);
    while (pairSlots[slot * 3] !== -1) slot = (slot + 1) & (slotCount - 1);
    pairSlots.set([first, second, lists.length], slot * 3);
    lists.push(positions);
  }
  return { ...groupByMaskAndKind(lists, profileKeyMask, profileKind), longIndex, longCount, pairSlots, pairSlotMask: slotCount - 1 };
}

function groupByMaskAndKind(lists: readonly number[][], profileKeyMask: Uint16Array, profileKind: Uint8Array) {
  const listGroupStart = new Int32Array(lists.length + 1);
  const groupMasks: number[] = [];
  const groupRunStarts: number[] = [0];
  const runKinds: number[] = [];
  const runStarts: number[] = [0];
  const postings = new Int32Array(lists.reduce((sum, positions) => sum + positions.length, 0));
  let written = 0;
  lists.forEach((positions, listId) => {
    // A Map keeps insertion order, and positions arrive best rank first: groups and their runs
    // come out ordered by their best rank, each run's positions ascending.
    const byMask = new Map<number, Map<number, number[]>>();
    for (const position of positions) {
      const mask = profileKeyMask[position]!, kind = profileKind[position]!;
      let runs = byMask.get(mask);
      if (!runs) byMask.set(mask, (runs = new Map()));
      const run = runs.get(kind);
      if (run) run.push(position);
      else runs.set(kind, [position]);
    }
    for (const [mask, runs] of byMask) {
      groupMasks.push(mask);
      for (const [kind, run] of runs) {
        runKinds.push(kind);
        postings.set(run, written);
        written += run.length;
        runStarts.push(written);
      }
      groupRunStarts.push(runKinds.length);
    }
    listGroupStart[listId + 1] = groupMasks.length;
  });
  return {
    listLength: Int32Array.from(lists, (positions) => positions.length),
    listGroupStart,
    groupMask: Uint16Array.from(groupMasks),
    groupRunStart: Int32Array.from(groupRunStarts),
    runKind: Uint8Array.from(runKinds),
    runStart: Int32Array.from(runStarts),
    postings,
  };
}
