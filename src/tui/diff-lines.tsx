import { Box, Text } from 'ink';
import type { DiffLine } from '../terminal/edit-diff.js';

/**
 * A file's diff as Claude Code draws it: the line number, `+` green, `-` red, context dim, `…`
 * between hunks. The permission dialog and the scrollback's applied edits both draw it.
 * @example <DiffLines lines={textDiff(before, after).lines} />
 */
export function DiffLines({ lines }: { lines: readonly DiffLine[] }) {
  const width = lineNumberWidth(lines);
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <DiffLineView key={i} line={line} width={width} />
      ))}
    </Box>
  );
}

/** The width of the line-number column: the longest number, at least 3. */
export function lineNumberWidth(lines: readonly { kind: string; line?: number }[]): number {
  return Math.max(3, ...lines.map((line) => (line.line === undefined ? 0 : String(line.line).length)));
}

export function DiffLineView({ line, width }: { line: DiffLine; width: number }) {
  if (line.kind === 'gap') return <Text dimColor>{`${' '.repeat(width)}   …`}</Text>;
  const sign = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
  const color = line.kind === 'add' ? 'green' : line.kind === 'del' ? 'red' : undefined;
  return (
    <Text color={color} dimColor={line.kind === 'same'}>
      {`${String(line.line).padStart(width)} ${sign} ${line.text}`}
    </Text>
  );
}
