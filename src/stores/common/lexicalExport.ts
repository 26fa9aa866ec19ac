import type { ExportedLexicalDocuments } from './lexicalIndex.ts';
import type { StringList } from './stringList.ts';
import { sortedOrderSteps, sortedPermutationSteps, type Steps } from './steps.ts';

/**
 * A lexical index as it was at one moment (LexicalIndex.freeze): the per-slot columns copied (a
 * few bytes per document), the term arena and the names shared with the live index, which
 * never rewrites arena cells below `arenaUsed` nor a term's name (it appends, and compacts
 * into new arrays). What a save encodes while the index goes on changing.
 */
export interface FrozenLexicalIndex {
  /** Term names by id; only the first `termCount` belong to this moment. */
  termNames: StringList;
  termCount: number;
  /** By slot; `''` for a slot never used. */
  ids: StringList;
  freeSlots: readonly number[];
  orders: Float64Array;
  docStart: Int32Array;
  docTermCount: Int32Array;
  lengths: Float64Array;
  arenaTerms: Int32Array;
  arenaTfs: Uint16Array;
}

/**
 * The frozen index's live documents, oldest first, with only the terms they use (LexicalDocuments).
 * Postings are rebuilt from the documents' terms, each term's run in document order: the live
 * index's runs are in no particular order (removal swaps), which a search does not depend on, but
 * a loaded file's runs must be increasing (LexicalIndex.fromDocuments checks it, cheaply).
 */
export function* exportDocumentSteps(index: FrozenLexicalIndex): Steps<ExportedLexicalDocuments> {
  const free = new Uint8Array(index.ids.length);
  for (const slot of index.freeSlots) free[slot] = 1;
  const liveSlots: number[] = [];
  for (let slot = 0; slot < index.ids.length; slot++) if (free[slot] === 0) liveSlots.push(slot);
  const { orders, docStart, docTermCount, arenaTerms, arenaTfs } = index;
  const byAge = yield* sortedPermutationSteps(liveSlots.length, (a, b) => orders[liveSlots[a]] - orders[liveSlots[b]]);
  const slots = Int32Array.from(byAge, (at) => liveSlots[at]);
  yield;

  // Local term numbers follow the names' string order, so a loaded index can search the names.
  const used = new Uint8Array(index.termCount);
  let cells = 0;
  for (let at = 0; at < slots.length; at++) {
    const start = docStart[slots[at]];
    const end = start + docTermCount[slots[at]];
    cells += end - start;
    for (let cell = start; cell < end; cell++) used[arenaTerms[cell]] = 1;
    if (at % 256 === 255) yield;
  }
  const usedIds: number[] = [];
  for (let termId = 0; termId < used.length; termId++) if (used[termId] === 1) usedIds.push(termId);
  // The used names made once (a loaded index reads them in place), not at every comparison of the sort.
  const names = new Array<string>(usedIds.length);
  for (let at = 0; at < usedIds.length; at++) {
    names[at] = index.termNames.at(usedIds[at])!;
    if (at % 4_096 === 4_095) yield;
  }
  const byName = yield* sortedPermutationSteps(usedIds.length, (a, b) => {
    const left = names[a];
    const right = names[b];
    return left < right ? -1 : left > right ? 1 : 0;
  });
  const localOf = new Int32Array(index.termCount);
  const termNames = new Array<string>(byName.length);
  for (let local = 0; local < byName.length; local++) {
    const termId = usedIds[byName[local]];
    localOf[termId] = local;
    termNames[local] = names[byName[local]];
  }
  yield;

  const lengths = new Float64Array(slots.length);
  const ids = new Array<string>(slots.length);
  const postingSizes = new Int32Array(termNames.length);
  for (let position = 0; position < slots.length; position++) {
    const slot = slots[position];
    ids[position] = index.ids.at(slot)!;
    lengths[position] = index.lengths[slot];
    const start = docStart[slot];
    for (let at = start; at < start + docTermCount[slot]; at++) postingSizes[localOf[arenaTerms[at]]]++;
    if (position % 256 === 255) yield;
  }

  // Documents in order, each appending to its terms' runs: every run lists its documents increasing.
  const next = new Int32Array(termNames.length);
  for (let term = 1; term < termNames.length; term++) next[term] = next[term - 1] + postingSizes[term - 1];
  const postingDocuments = new Int32Array(cells);
  const postingTfs = new Uint16Array(cells);
  for (let position = 0; position < slots.length; position++) {
    const start = docStart[slots[position]];
    for (let at = start; at < start + docTermCount[slots[position]]; at++) {
      const cell = next[localOf[arenaTerms[at]]]++;
      postingDocuments[cell] = position;
      postingTfs[cell] = arenaTfs[at];
    }
    if (position % 256 === 255) yield;
  }
  const idOrder = yield* sortedOrderSteps(ids);
  return { termNames, ids, idOrder, lengths, postingSizes, postingDocuments, postingTfs };
}
