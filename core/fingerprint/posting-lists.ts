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
 * Each list is split into groups of profiles with the same key mask, groups ordered by their
 * best rank, positions ascending (best rank first) within a group:
 *   groups of list l:     listGroupStart[l] .. listGroupStart[l+1]
 *   key mask of group g:  groupMask[g]
 *   positions of group g: postings[groupStart[g] .. groupStart[g+1]]
 */

/** A value held by more profiles than this is "long" and takes part in pair lists. */
const LONG_LIST_LENGTH = 32;

export interface PostingLists {
  listLength: Int32Array;
  listGroupStart: Int32Array;
  groupMask: Uint16Array;
  groupStart: Int32Array;
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
 */
export function createPostingLists(
  valueLists: readonly number[][],
  valueKey: Uint8Array,
  valuesOfProfile: readonly number[][],
  profileKeyMask: Uint16Array,
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
  return { ...groupByKeyMask(lists, profileKeyMask), longIndex, longCount, pairSlots, pairSlotMask: slotCount - 1 };
}

function groupByKeyMask(lists: readonly number[][], profileKeyMask: Uint16Array) {
  const listGroupStart = new Int32Array(lists.length + 1);
  const groupMasks: number[] = [];
  const groupStarts: number[] = [0];
  const postings = new Int32Array(lists.reduce((sum, positions) => sum + positions.length, 0));
  let written = 0;
  lists.forEach((positions, listId) => {
    // A Map keeps insertion order, and positions arrive best rank first: groups come out
    // ordered by their best rank, each group's positions ascending.
    const byMask = new Map<number, number[]>();
    for (const position of positions) {
      const mask = profileKeyMask[position]!;
      const group = byMask.get(mask);
      if (group) group.push(position);
      else byMask.set(mask, [position]);
    }
    for (const [mask, group] of byMask) {
      groupMasks.push(mask);
      postings.set(group, written);
      written += group.length;
      groupStarts.push(written);
    }
    listGroupStart[listId + 1] = groupMasks.length;
  });
  return {
    listLength: Int32Array.from(lists, (positions) => positions.length),
    listGroupStart,
    groupMask: Uint16Array.from(groupMasks),
    groupStart: Int32Array.from(groupStarts),
    postings,
  };
}
