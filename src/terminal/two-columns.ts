/**
 * Rows of a name and a description as two columns, as `/help` lists commands and keys: the
 * names in one column, each description wrapped at `width` with a hanging indent at the
 * description column (a wrapped line never goes back to column 0). A name too wide for its
 * column (at most 40 % of the width) stands on its own line, its description on the next ones.
 * @example twoColumns([['/help', 'list the commands and keys'], ['/exit', 'leave']], 24)
 * // ['  /help  list the', '         commands and', '         keys', '  /exit  leave']
 */
export function twoColumns(rows: ReadonlyArray<readonly [string, string]>, width: number, indent = 2, gap = 2): string[] {
  const cap = Math.floor((width - indent - gap) * 0.4);
  // The column fits the widest name that fits the cap; wider names take a line of their own.
  const nameWidth = Math.max(0, ...rows.map(([name]) => name.length).filter((length) => length <= cap));
  const at = indent + nameWidth + gap;
  const hanging = ' '.repeat(at);
  const lines: string[] = [];
  for (const [name, description] of rows) {
    const wrapped = wrapWords(description, Math.max(10, width - at));
    if (name.length > nameWidth) {
      // Even the name may need wrapping at a narrow width: its next lines a little further in.
      const nameLines = wrapWords(name, Math.max(10, width - indent - gap));
      lines.push(
        ...nameLines.map((line, i) => `${' '.repeat(i === 0 ? indent : indent + gap)}${line}`),
        ...wrapped.map((line) => `${hanging}${line}`),
      );
    } else
      lines.push(
        `${' '.repeat(indent)}${name.padEnd(nameWidth + gap)}${wrapped[0] ?? ''}`.trimEnd(),
        ...wrapped.slice(1).map((l) => `${hanging}${l}`),
      );
  }
  return lines;
}

/** Words in lines of at most `width` characters; a longer word is cut. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word.length > width) {
      if (line) lines.push(line);
      lines.push(word.slice(0, width));
      word = word.slice(width);
      line = '';
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
