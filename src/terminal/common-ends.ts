/**
 * The one diff trimmer: how many lines an old and a new text share at the start (`head`) and at
 * the end (`tail`, never overlapping the head). What lies between is the change, which the
 * terminal prompt, the dialog and the tool activity line all show or count from this.
 * @example commonEnds(['a', 'b', 'c'], ['a', 'x', 'c']) // { head: 1, tail: 1 }
 */
export function commonEnds(before: readonly string[], after: readonly string[]): { head: number; tail: number } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail])
    tail++;
  return { head, tail };
}
