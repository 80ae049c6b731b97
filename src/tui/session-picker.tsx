import { Box, render, Text, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { listSessions } from '../sessions/store.js';
import { loadTranscript } from '../sessions/transcript.js';
import { visible } from '../terminal/visible.js';

/** A recorded session as the picker lists it. */
export interface PickableSession {
  id: string;
  /** ISO 8601: when its last task ran. */
  updated: string;
  firstPrompt: string;
  /** Messages in its conversation, as `Resumed <id> · N messages` counts them. */
  messages: number;
}

/** Sessions the picker offers, newest first; the rest are reached with `xagent sessions` and `-r <id>`. */
const MAX_SESSIONS = 50;
/** Rows shown at once; the list scrolls with the selection. */
const VISIBLE_ROWS = 10;

/**
 * This folder's recorded sessions, most recently updated first.
 * @example recentSessions(config.home, config.workspace)[0]?.id
 */
export function recentSessions(home: string, workspace: string): PickableSession[] {
  return listSessions(home)
    .sessions.filter((s) => s.meta.workspace === workspace)
    .slice(0, MAX_SESSIONS)
    .map((s) => ({ id: s.id, updated: s.meta.updated, firstPrompt: s.meta.first_prompt, messages: loadTranscript(s.dir).messages.length }));
}

/**
 * When, as a person says it: `just now`, `5 min ago`, `3 h ago`, `yesterday`, `4 days ago`, else the date.
 * @example whenAgo('2026-12-01T10:00:00Z', Date.parse('2026-12-01T10:05:00Z')) // '5 min ago'
 */
export function whenAgo(iso: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (!Number.isFinite(minutes)) return '?';
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 2) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return iso.slice(0, 10);
}

/**
 * `xagent -r` without an id: the sessions of this folder, newest first, to resume one with ↑/↓ and
 * Enter; Esc (or Ctrl-C) quits without starting anything. Resolves with the chosen id or null.
 * @example const id = await pickSession({ sessions: recentSessions(home, workspace), workspace });
 */
export async function pickSession(options: {
  sessions: readonly PickableSession[];
  workspace: string;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}): Promise<string | null> {
  let choose: (id: string | null) => void = () => undefined;
  const chosen = new Promise<string | null>((resolve) => (choose = resolve));
  const ink = render(<SessionPicker sessions={options.sessions} workspace={options.workspace} onPick={(id) => choose(id)} />, {
    exitOnCtrlC: false,
    patchConsole: false,
    ...(options.stdout ? { stdout: options.stdout } : {}),
    ...(options.stdin ? { stdin: options.stdin } : {}),
  });
  const id = await chosen;
  ink.unmount();
  await ink.waitUntilExit();
  return id;
}

function SessionPicker({
  sessions,
  workspace,
  onPick,
}: {
  sessions: readonly PickableSession[];
  workspace: string;
  onPick(id: string | null): void;
}) {
  // In a ref, changed at once: keys that arrive before React has drawn must see the last selection.
  const selected = useRef(0);
  const [done, setDone] = useState<{ id: string | null } | null>(null);
  const [, redraw] = useState(0);
  // Answered once the empty frame is drawn: the picker leaves nothing behind for the terminal UI (or the shell).
  useEffect(() => {
    if (done) onPick(done.id);
  }, [done, onPick]);
  const pick = (id: string | null) => setDone({ id });
  useInput((input, key) => {
    if (done) return;
    if (key.escape || (key.ctrl && input === 'c')) return pick(null);
    if (key.return) return pick(sessions[selected.current]?.id ?? null);
    const step = key.upArrow ? -1 : key.downArrow ? 1 : 0;
    if (step === 0) return;
    selected.current = Math.min(sessions.length - 1, Math.max(0, selected.current + step));
    redraw((n) => n + 1);
  });
  if (done) return null;
  const now = Date.now();
  const first = Math.min(Math.max(0, selected.current - VISIBLE_ROWS + 1), Math.max(0, sessions.length - VISIBLE_ROWS));
  const shown = sessions.slice(first, first + VISIBLE_ROWS);
  const rows = shown.map((s) => ({
    session: s,
    when: whenAgo(s.updated, now),
    count: `${s.messages} message${s.messages === 1 ? '' : 's'}`,
  }));
  const whenWidth = Math.max(...rows.map((row) => row.when.length));
  const countWidth = Math.max(...rows.map((row) => row.count.length));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{`Resume a session of ${visible(workspace)}`}</Text>
      {first > 0 && <Text dimColor>{`  ↑ ${first} newer`}</Text>}
      {rows.map(({ session, when, count }, i) => {
        const isSelected = first + i === selected.current;
        return (
          <Text key={session.id} color={isSelected ? 'cyan' : undefined} wrap="truncate-end">
            {`${isSelected ? '❯' : ' '} ${when.padEnd(whenWidth)}  ${count.padStart(countWidth)}  ${visible(session.firstPrompt.replace(/\s+/g, ' ').trim())}`}
          </Text>
        );
      })}
      {first + VISIBLE_ROWS < sessions.length && <Text dimColor>{`  ↓ ${sessions.length - first - VISIBLE_ROWS} older`}</Text>}
      <Text dimColor>↑/↓ chooses · Enter resumes · Esc quits</Text>
    </Box>
  );
}
