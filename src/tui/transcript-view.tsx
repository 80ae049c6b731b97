import { Box, Text, useInput, useStdout } from 'ink';
import { useRef, useState } from 'react';
import { transcriptLines } from './agent-transcript.js';
import type { TranscriptView as View } from './store.js';
import { visible } from '../terminal/visible.js';

/** Rows the view leaves to the rest of the screen (its border, title and footer, the status line), so Ink never clears the screen. */
const CHROME_ROWS = 8;

/** `line` cut into rows of at most `width` characters: the view scrolls by rows, so each must take one. */
const rows = (line: string, width: number) => (line.length <= width ? [line] : (line.match(new RegExp(`.{1,${width}}`, 'gu')) ?? [line]));

/**
 * A subagent's transcript in place of the input (Ctrl-O on a subagent, as Claude Code's Ctrl-O
 * transcript view): its prompt, texts, tool calls and end, from the top. ↑/↓ (or k/j) scroll a
 * line, PgUp/PgDn (or space) a page, Home/End (or g/G) to either end; Esc, q, Ctrl-O or Ctrl-C closes.
 * A running subagent's view grows as it works; at the bottom, it follows the new lines.
 */
export function TranscriptView({ view, onClose }: { view: View; onClose(): void }) {
  const { stdout } = useStdout();
  const width = Math.max(20, (stdout.columns || 80) - 4);
  const height = Math.max(5, (stdout.rows || 24) - CHROME_ROWS);
  const lines = transcriptLines(view.entries).flatMap((line) => rows(line, width));
  const last = Math.max(0, lines.length - height);
  // In a ref, changed at once: keys that arrive before React has drawn must see the last offset.
  const top = useRef(0);
  const following = useRef(false);
  const [, redraw] = useState(0);
  if (following.current) top.current = last;
  top.current = Math.min(top.current, last);
  const scrollTo = (offset: number) => {
    top.current = Math.max(0, Math.min(last, offset));
    following.current = top.current === last && last > 0;
    redraw((n) => n + 1);
  };
  useInput((input, key) => {
    // Ctrl-C too: the input, which owns Ctrl-C, takes no keys while the view is open.
    if (key.escape || input === 'q' || (key.ctrl && (input === 'o' || input === 'c'))) return onClose();
    if (key.upArrow || input === 'k') return scrollTo(top.current - 1);
    if (key.downArrow || input === 'j') return scrollTo(top.current + 1);
    if (key.pageUp) return scrollTo(top.current - height);
    if (key.pageDown || input === ' ') return scrollTo(top.current + height);
    if (key.home || input === 'g') return scrollTo(0);
    if (key.end || input === 'G') return scrollTo(last);
  });
  const shown = lines.slice(top.current, top.current + height);
  const where = lines.length > height ? ` · lines ${top.current + 1}–${top.current + shown.length} of ${lines.length}` : '';
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold wrap="truncate-end">{`⏺ ${visible(view.title)} · transcript${where}`}</Text>
      {shown.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the key is the line's number in the transcript, which is what it is.
        <Text key={top.current + i} wrap="truncate-end" dimColor={line.startsWith('  ⎿')}>
          {line || ' '}
        </Text>
      ))}
      <Text dimColor wrap="truncate-end">
        ↑↓ PgUp PgDn Home End scroll · Esc or Ctrl-O closes
      </Text>
    </Box>
  );
}
