import { Box, type Key, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { completeCommand } from './commands.js';

/** The readline control keys the box acts on, by the byte a terminal sends for each. */
const READLINE_KEYS: Record<string, string> = { '\x01': 'a', '\x05': 'e', '\x15': 'u', '\x17': 'w' };

export interface InputBoxProps {
  /** Enter on a line that does not end in `\`. */
  onSubmit(text: string): void;
  /** Ctrl-C: returns true if it was used (a task stopped); else the box clears or, when empty, asks to leave. */
  onInterrupt(): boolean;
  /** Esc while a task runs. */
  /** Esc; returns true when it stopped a running task. */
  onEscape(): boolean | undefined;
  /** Esc twice on an empty prompt, with no task stopped by the first (/rewind). */
  onDoubleEscape?(): void;
  /** Ctrl-D on an empty box, or Ctrl-C twice. */
  onLeave(): void;
  /** Shift-Tab: the next permission mode. */
  onCycleMode(): void;
  /** Ctrl-O: the last tool's whole output. */
  onExpand(): void;
  /** Typing is kept, but keys go to the dialog while it is open. */
  active: boolean;
  /** What the empty box says while it is not active (a dialog's question by default). */
  waitingFor?: string;
  history: string[];
  hint: string;
  setHint(hint: string): void;
}

/**
 * A bordered, multi-line input: Enter sends; `\` then Enter, Shift-Enter or Alt-Enter adds a
 * line; ↑/↓ walk the history from the first and last line; Tab completes a slash command;
 * pasted text (several characters at once, newlines included) is inserted as it is.
 */
export function InputBox({
  onSubmit,
  onInterrupt,
  onEscape,
  onDoubleEscape,
  onLeave,
  onCycleMode,
  onExpand,
  active,
  waitingFor = 'waiting for your answer above',
  history,
  hint,
  setHint,
}: InputBoxProps) {
  // The text lives in a ref, changed at once: keys that arrive before React has drawn the last
  // one must see it (a handler's closure would hold the text as it was at the last render).
  const text = useRef({ value: '', cursor: 0 });
  // Set by an Esc on an empty prompt that stopped nothing; any other key clears it.
  const escapedOnce = useRef(false);
  const [, redraw] = useState(0);
  const browsing = useRef<{ index: number; draft: string } | null>(null);
  const lastCtrlC = useRef(0);

  const set = (next: string, at = next.length) => {
    text.current = { value: next, cursor: at };
    redraw((n) => n + 1);
  };
  const setCursor = (at: number) => set(text.current.value, at);
  const insert = (more: string) => {
    const { value, cursor } = text.current;
    set(value.slice(0, cursor) + more + value.slice(cursor), cursor + more.length);
  };

  const handle = (input: string, key: Key) => {
    const { value, cursor } = text.current;
    if (key.ctrl && input === 'c') {
      if (onInterrupt()) return;
      if (value) return set('');
      const now = Date.now();
      if (now - lastCtrlC.current < 2000) return onLeave();
      lastCtrlC.current = now;
      return setHint('Press Ctrl-C again to leave (or Ctrl-D, /exit)');
    }
    if (key.ctrl && input === 'd') {
      if (!value) onLeave();
      return;
    }
    if (key.escape) {
      const second = escapedOnce.current && value === '';
      if (second && onDoubleEscape) {
        escapedOnce.current = false;
        setHint('');
        return onDoubleEscape();
      }
      escapedOnce.current = onEscape() !== true && value === '' && onDoubleEscape !== undefined;
      if (escapedOnce.current) setHint('Esc again to rewind to one of your messages');
      return;
    }
    if (escapedOnce.current) {
      escapedOnce.current = false;
      setHint('');
    }
    if (key.return) {
      if (key.shift || key.meta) return insert('\n');
      return enter(value, cursor);
    }
    if (key.tab && key.shift) return onCycleMode();
    if (key.ctrl && input === 'o') return onExpand();
    if (key.tab) {
      const matches = value.startsWith('/') && !value.includes(' ') ? completeCommand(value) : [];
      if (matches.length === 1) return set(`/${matches[0]!.name} `);
      // Several: first as far as they agree (`/co` stays, `/con` becomes `/con`), then each in turn.
      const common = commonPrefix(matches.map((m) => m.name));
      if (matches.length > 1 && `/${common}`.length > value.length) return set(`/${common}`);
      if (matches.length > 1) {
        const index = matches.findIndex((m) => `/${m.name}` === value);
        return set(`/${matches[(index + 1) % matches.length]!.name}`);
      }
      return;
    }
    // Readline's keys: Ctrl-A/Home to the line's start, Ctrl-E/End to its end, Ctrl-U deletes to the start, Ctrl-W a word.
    const lineStart = value.lastIndexOf('\n', cursor - 1) + 1;
    const lineEnd = value.indexOf('\n', cursor) < 0 ? value.length : value.indexOf('\n', cursor);
    if ((key.ctrl && input === 'a') || key.home) return setCursor(lineStart);
    if ((key.ctrl && input === 'e') || key.end) return setCursor(lineEnd);
    if (key.ctrl && input === 'u') return set(value.slice(0, lineStart) + value.slice(cursor), lineStart);
    if (key.ctrl && input === 'w') {
      const wordStart = value.slice(lineStart, cursor).replace(/\S+\s*$/, '').length + lineStart;
      const start = wordStart === cursor ? Math.max(lineStart, value.slice(lineStart, cursor).trimEnd().length + lineStart) : wordStart;
      return set(value.slice(0, start) + value.slice(cursor), start);
    }
    if (key.backspace || key.delete) {
      if (cursor === 0) return;
      return set(value.slice(0, cursor - 1) + value.slice(cursor), cursor - 1);
    }
    if (key.leftArrow) return setCursor(Math.max(0, cursor - 1));
    if (key.rightArrow) return setCursor(Math.min(value.length, cursor + 1));
    if (key.upArrow || key.downArrow) {
      const onFirstLine = !value.slice(0, cursor).includes('\n');
      const onLastLine = !value.slice(cursor).includes('\n');
      if (key.upArrow && !onFirstLine) return setCursor(moveLine(value, cursor, -1));
      if (key.downArrow && !onLastLine) return setCursor(moveLine(value, cursor, 1));
      return walkHistory(key.upArrow ? -1 : 1);
    }
    if (key.ctrl || key.meta || !input) return;
    // Keys typed faster than they were read arrive as one chunk (on a loaded machine, over ssh):
    // a readline key inside it (Ctrl-A, -E, -U, -W) acts in its place, as if it had come alone.
    const keys = input.length > 1 ? input.split(/([\x01\x05\x15\x17])/).filter(Boolean) : [];
    if (keys.length > 1) {
      for (const part of keys) {
        const letter = READLINE_KEYS[part];
        if (letter) handle(letter, { ...key, ctrl: true });
        else handle(part, key);
      }
      return;
    }
    // Fast typing and pastes arrive as one chunk; terminals send line breaks as \r. A chunk that
    // ends in \r was typed and sent (the keys came faster than they were read); others are text.
    // (Typed before the terminal was in raw mode, the line ends in \n instead.)
    const sent = input.length > 1 && /[\r\n]$/.test(input);
    const typed = (sent ? input.slice(0, -1) : input).replace(/\\\r/g, '\n').replace(/\r\n?/g, '\n');
    const next = value.slice(0, cursor) + typed + value.slice(cursor);
    if (sent) return enter(next, cursor + typed.length);
    set(next, cursor + typed.length);
  };
  useInput(handle, { isActive: active });

  /** Enter: a line ending in `\` gets a new line instead; anything else is sent. */
  const enter = (line: string, at: number) => {
    if (line.slice(0, at).endsWith('\\')) return set(`${line.slice(0, at - 1)}\n${line.slice(at)}`, at);
    const trimmed = line.trim();
    if (!trimmed) return set(line, at);
    browsing.current = null;
    set('');
    setHint('');
    onSubmit(trimmed);
  };

  const walkHistory = (step: -1 | 1) => {
    if (history.length === 0) return;
    const current = browsing.current ?? { index: history.length, draft: text.current.value };
    const index = Math.min(history.length, Math.max(0, current.index + step));
    browsing.current = { index, draft: current.draft };
    set(index === history.length ? current.draft : history[index]!);
  };

  const { value, cursor } = text.current;
  const completions = value.startsWith('/') && !value.includes(' ') ? completeCommand(value) : [];
  const before = value.slice(0, cursor);
  const at = value[cursor] ?? ' ';
  const after = value.slice(cursor + 1);
  const atLineEnd = at === '\n';
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor={active ? 'cyan' : 'gray'} paddingX={1}>
        <Text>
          <Text color="cyan">› </Text>
          {value ? '' : <Text dimColor>{active ? '' : waitingFor}</Text>}
          {before}
          <Text inverse>{atLineEnd ? ' ' : at}</Text>
          {atLineEnd ? `\n${after}` : after}
        </Text>
      </Box>
      {completions.length > 0 && (
        <Box flexDirection="column" paddingX={2}>
          {completions.map((command) => (
            <Text key={command.name}>
              <Text color="cyan">/{command.name}</Text>
              <Text dimColor>{`  ${command.description}`}</Text>
            </Text>
          ))}
        </Box>
      )}
      {hint && (
        <Box paddingX={2}>
          <Text dimColor>{hint}</Text>
        </Box>
      )}
    </Box>
  );
}

/** The longest beginning all the names share. */
function commonPrefix(names: string[]): string {
  if (names.length === 0) return '';
  let prefix = names[0]!;
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** The cursor one line up or down, at the same column or the line's end. */
function moveLine(value: string, cursor: number, step: -1 | 1): number {
  const lineStart = value.lastIndexOf('\n', cursor - 1) + 1;
  const column = cursor - lineStart;
  if (step === -1) {
    const prevStart = value.lastIndexOf('\n', lineStart - 2) + 1;
    return Math.min(prevStart + column, lineStart - 1);
  }
  const nextStart = value.indexOf('\n', cursor) + 1;
  const nextEnd = value.indexOf('\n', nextStart);
  return Math.min(nextStart + column, nextEnd < 0 ? value.length : nextEnd);
}
