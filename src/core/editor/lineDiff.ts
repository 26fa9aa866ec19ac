/**
 * A line diff small enough for editor memories: common leading and trailing lines are cut, and the
 * middle is aligned line by line (longest common subsequence) when both sides are short, so a fix
 * and an unrelated edit further down stay separate hunks. A long middle is one hunk: the editor
 * never diffs a whole rewritten file line by line.
 */

export interface DiffHunk {
  /** 0-based first line of the hunk in the old text. */
  oldStart: number;
  oldLines: string[];
  /** 0-based first line of the hunk in the new text. */
  newStart: number;
  newLines: string[];
}

/** Above this many lines on either side of the trimmed middle, the middle is one hunk. */
const ALIGN_LIMIT = 400;

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

export function diffLines(before: readonly string[], after: readonly string[]): DiffHunk[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const oldMiddle = before.slice(head, before.length - tail);
  const newMiddle = after.slice(head, after.length - tail);
  if (oldMiddle.length === 0 && newMiddle.length === 0) return [];
  if (oldMiddle.length > ALIGN_LIMIT || newMiddle.length > ALIGN_LIMIT)
    return [{ oldStart: head, oldLines: oldMiddle, newStart: head, newLines: newMiddle }];
  return aligned(oldMiddle, newMiddle).map((hunk) => ({
    ...hunk,
    oldStart: hunk.oldStart + head,
    newStart: hunk.newStart + head,
  }));
}

function aligned(before: readonly string[], after: readonly string[]): DiffHunk[] {
  const rows = before.length + 1;
  const cols = after.length + 1;
  // common[i][j]: length of the longest common subsequence of before[i..] and after[j..].
  const common = new Uint32Array(rows * cols);
  for (let i = before.length - 1; i >= 0; i--)
    for (let j = after.length - 1; j >= 0; j--)
      common[i * cols + j] =
        before[i] === after[j]
          ? common[(i + 1) * cols + j + 1] + 1
          : Math.max(common[(i + 1) * cols + j], common[i * cols + j + 1]);
  const hunks: DiffHunk[] = [];
  let open: DiffHunk | null = null;
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      open = null;
      i++;
      j++;
      continue;
    }
    if (open === null) {
      open = { oldStart: i, oldLines: [], newStart: j, newLines: [] };
      hunks.push(open);
    }
    if (j >= after.length || (i < before.length && common[(i + 1) * cols + j] >= common[i * cols + j + 1])) {
      open.oldLines.push(before[i]);
      i++;
    } else {
      open.newLines.push(after[j]);
      j++;
    }
  }
  return hunks;
}

/**
 * Whether the new side of `hunk` (lines of `now`) is identical to `baseline` there: no change
 * between `baseline` and `now` touches those lines. A hunk that only deletes is judged by its
 * position.
 */
export function hunkMatchesBaseline(hunk: DiffHunk, baselineToNow: readonly DiffHunk[]): boolean {
  const from = hunk.newStart;
  const to = hunk.newStart + hunk.newLines.length;
  return !baselineToNow.some((change) => {
    const changeFrom = change.newStart;
    const changeTo = change.newStart + change.newLines.length;
    if (from === to || changeFrom === changeTo) return changeFrom <= to && from <= changeTo;
    return changeFrom < to && from < changeTo;
  });
}
