/**
 * `xagent sesions` is a typo of a subcommand, not a one-word task for the model: a lone word
 * within two edits of a command name is refused with the command it probably meant.
 * @example nearCommand(['sesions'], ['sessions', 'diagram']) // 'sessions'
 */
export function nearCommand(words: readonly string[], commands: readonly string[]): string | null {
  if (words.length !== 1 || !/^[a-z][a-z-]*$/.test(words[0])) return null;
  const word = words[0];
  let best: { name: string; distance: number } | null = null;
  for (const name of commands) {
    const distance = editDistance(word, name);
    if (name.length >= 4 && distance > 0 && distance <= Math.min(2, Math.floor(name.length / 3)) && (!best || distance < best.distance))
      best = { name, distance };
  }
  return best?.name ?? null;
}

/** Levenshtein distance, with swapped neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2][j - 2] + 1);
      d[i][j] = value;
    }
  }
  return d[a.length][b.length];
}
