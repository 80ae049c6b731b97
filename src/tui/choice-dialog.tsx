import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import type { ChoiceRequest } from './store.js';

/**
 * A question with numbered answers, in place of the input: ↑/↓ and Enter, or the answer's number;
 * Esc answers nothing. It only draws and reads keys; whoever asked decides what an answer does.
 */
export function ChoiceDialog({ request }: { request: ChoiceRequest }) {
  // In a ref, changed at once: keys that arrive before React has drawn must see the last selection.
  const selected = useRef(0);
  const [, redraw] = useState(0);
  const select = (index: number) => {
    selected.current = (index + request.options.length) % request.options.length;
    redraw((n) => n + 1);
  };
  useInput((input, key) => {
    if (key.escape) return request.pick(null);
    if (key.return) return request.pick(selected.current);
    if (key.upArrow) return select(selected.current - 1);
    if (key.downArrow) return select(selected.current + 1);
    const n = Number(input);
    if (Number.isInteger(n) && n >= 1 && n <= request.options.length) request.pick(n - 1);
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      {request.title.map((line, i) => (
        <Text key={`t${i}`} bold={i === 0}>
          {line}
        </Text>
      ))}
      {request.options.map((option, i) => (
        <Text key={`o${i}`} color={i === selected.current ? 'cyan' : undefined}>
          {`${i === selected.current ? '❯' : ' '} ${i + 1}. ${option}`}
        </Text>
      ))}
      {request.footer && <Text dimColor>{request.footer}</Text>}
      <Text dimColor>Enter or the number chooses · Esc cancels</Text>
    </Box>
  );
}
