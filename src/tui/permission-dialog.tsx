import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { DialogLine } from '../terminal/dialog-view.js';
import { DiffLineView, lineNumberWidth } from './diff-lines.js';
import type { DialogRequest } from './store.js';

/**
 * The permission dialog: the tool, the full command or a coloured diff with line numbers, then
 * 1 yes / 2 yes and don't ask again for <rule> / 3 no, and tell xagent what to do instead.
 * Esc is a plain no (the task stops). It only draws and reads keys; the permission layer decides.
 */
export function PermissionDialog({ request }: { request: DialogRequest }) {
  const { view, answer } = request;
  // In a ref, changed at once: keys typed right after `3` must reach the feedback line even
  // before React has drawn it (a handler's closure holds the state of the last render).
  const mode = useRef<{ feedback: string | null; selected: number }>({ feedback: null, selected: 0 });
  const [, redraw] = useState(0);
  const change = (next: Partial<{ feedback: string | null; selected: number }>) => {
    mode.current = { ...mode.current, ...next };
    redraw((n) => n + 1);
  };
  const setFeedback = (feedback: string | null) => change({ feedback });
  const setSelected = (selected: number) => change({ selected });
  const { acceptEdits } = request;
  const options = [
    { key: '1', label: 'Yes', pick: () => answer({ kind: 'yes' }) },
    ...(acceptEdits
      ? [
          {
            key: '2',
            label: "Yes, and don't ask again for file edits this session (accept edits mode; Shift-Tab changes it)",
            pick: acceptEdits,
          },
        ]
      : view.alwaysRules.length > 0
        ? [
            {
              key: '2',
              label: `Yes, and don't ask again for ${view.alwaysRules.join(', ')} (saved to ${view.settingsFile})`,
              pick: () => answer({ kind: 'always' }),
            },
          ]
        : []),
    { key: '3', label: 'No, and tell xagent what to do instead', pick: () => setFeedback('') },
  ];

  useInput((input, key) => {
    const { feedback, selected } = mode.current;
    if (feedback !== null) {
      if (key.escape) return setFeedback(null);
      if (key.return) return feedback.trim() ? answer({ kind: 'feedback', text: feedback.trim() }) : undefined;
      if (key.backspace || key.delete) return setFeedback(feedback.slice(0, -1));
      if (key.ctrl && input === 'c') return answer({ kind: 'no' });
      if (key.ctrl || key.meta || !input) return;
      // Keys typed faster than they are read arrive as one chunk; a final \r is Enter.
      const text = feedback + input.replace(/[\r\n]+$/, '').replace(/[\r\n]+/g, ' ');
      if (/[\r\n]$/.test(input) && text.trim()) return answer({ kind: 'feedback', text: text.trim() });
      setFeedback(text);
      return;
    }
    if (key.escape || (key.ctrl && input === 'c')) return answer({ kind: 'no' });
    if (key.upArrow) return setSelected(Math.max(0, selected - 1));
    if (key.downArrow) return setSelected(Math.min(options.length - 1, selected + 1));
    if (key.return) return options[selected]!.pick();
    options.find((option) => option.key === input)?.pick();
  });

  const { feedback, selected } = mode.current;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold>{view.title}</Text>
      <Text dimColor>{`asked because ${view.reason}`}</Text>
      <DialogLines lines={view.lines} />
      {feedback === null ? (
        options.map((option, i) => (
          <Text key={option.key} color={i === selected ? 'cyan' : undefined}>
            {`${i === selected ? '❯' : ' '} ${option.key}. ${option.label}`}
          </Text>
        ))
      ) : (
        <Box flexDirection="column">
          <Text>Tell xagent what to do instead (Enter sends, Esc goes back):</Text>
          <Text>
            <Text color="cyan">{'› '}</Text>
            {feedback}
            <Text inverse> </Text>
          </Text>
        </Box>
      )}
      {feedback === null && <Text dimColor>Esc: no, and stop the task</Text>}
    </Box>
  );
}

/** The dialog's lines in order: a command, plain text, or a file's diff lines (one number column). */
function DialogLines({ lines }: { lines: readonly DialogLine[] }) {
  const width = lineNumberWidth(lines);
  return (
    <Box flexDirection="column" marginY={1}>
      {lines.map((line, i) => {
        switch (line.kind) {
          case 'command':
            return (
              <Text key={i}>
                <Text dimColor>$ </Text>
                {line.text}
              </Text>
            );
          case 'text':
            return <Text key={i}>{line.text}</Text>;
          default:
            return <DiffLineView key={i} line={line} width={width} />;
        }
      })}
    </Box>
  );
}
