import { Box, Static, Text, useStdout } from 'ink';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { formatElapsed, formatTokens, Spinner } from '../terminal/spinner.js';
import { InputBox } from './input-box.js';
import { markdown } from './markdown-loader.js';
import { PermissionDialog } from './permission-dialog.js';
import { ChoiceDialog } from './choice-dialog.js';
import { TranscriptView } from './transcript-view.js';
import { DiffLines } from './diff-lines.js';
import type { Activity, Item, TuiState, TuiStore } from './store.js';
import { subagentStatus } from './subagent-lines.js';
import { visible } from '../terminal/visible.js';

export interface AppProps {
  store: TuiStore;
  onSubmit(text: string): void;
  /** Stops the running task; false when there is none. */
  onInterrupt(): boolean;
  onLeave(): void;
  /** Shift-Tab: the next permission mode. */
  onCycleMode(): void;
  /** Ctrl-O: the last tool's whole output, or a subagent's transcript. */
  onExpand(): void;
  /** Esc or Ctrl-O in a subagent's transcript: back to the input. */
  onCloseTranscript(): void;
  /** Esc Esc on an empty prompt: /rewind. */
  onRewind(): void;
  history: string[];
}

/** Lines of a streaming answer kept on screen; the whole answer is printed when its turn ends. */
const LIVE_LINES = 12;

/** The last `lines` lines of `text` wrapped at `width`, roughly: enough for a live view. */
function tail(text: string, lines: number, width: number): string {
  const wrapped = text
    .split('\n')
    .flatMap((line) => (line.length <= width ? [line] : (line.match(new RegExp(`.{1,${width}}(\\s|$)|\\S+`, 'g')) ?? [line])));
  return wrapped.length <= lines ? text : `…\n${wrapped.slice(-lines).join('\n')}`;
}

/** The whole screen: finished items (printed once), the live turn, the dialog or the input, the status line. */
export function App({ store, onSubmit, onInterrupt, onLeave, onCycleMode, onExpand, onCloseTranscript, onRewind, history }: AppProps) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  const { stdout } = useStdout();
  const width = Math.max(40, (stdout.columns || 80) - 2);
  // A question to the person comes first: the transcript waits behind it.
  const transcript = state.dialog || state.choice ? null : state.transcript;
  return (
    <Box flexDirection="column">
      <Static items={state.items}>{(item) => <ItemView key={item.id} item={item} width={width} />}</Static>
      {transcript && <TranscriptView view={transcript} onClose={onCloseTranscript} />}
      {!transcript && state.streaming && (
        <Box paddingLeft={2}>
          <Text>{tail(state.streaming, LIVE_LINES, width - 2)}</Text>
        </Box>
      )}
      {!transcript &&
        state.subagents.map((line) => (
          <Box key={line.agent} flexDirection="column">
            <Text>⏺ {visible(line.title)}</Text>
            <Box paddingLeft={2}>
              <Text dimColor>⎿ {visible(subagentStatus(line, Date.now()))}</Text>
            </Box>
          </Box>
        ))}
      {state.activity && !state.dialog && !transcript && (
        <ActivityLine activity={state.activity} tokens={state.usage.output_tokens + state.turnTokens} />
      )}
      {state.dialog && <PermissionDialog key={state.items.length} request={state.dialog} />}
      {state.choice && !state.dialog && <ChoiceDialog key={state.choice.title.join('\n')} request={state.choice} />}
      <InputBox
        active={!state.dialog && !state.choice && !transcript}
        {...(transcript ? { waitingFor: 'reading the transcript above (Esc closes)' } : {})}
        history={history}
        hint={state.hint}
        setHint={(hint) => store.update({ hint })}
        onSubmit={onSubmit}
        onInterrupt={onInterrupt}
        onEscape={onInterrupt}
        onDoubleEscape={onRewind}
        onLeave={onLeave}
        onCycleMode={onCycleMode}
        onExpand={onExpand}
      />
      <StatusLine state={state} />
    </Box>
  );
}

function ItemView({ item, width }: { item: Item; width: number }) {
  switch (item.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan">{'› '}</Text>
          <Text>{item.text}</Text>
        </Box>
      );
    case 'assistant':
      return (
        <Box paddingLeft={2} marginTop={1}>
          <Text>{markdown(item.text, width - 2)}</Text>
        </Box>
      );
    case 'tool':
      return (
        <Box flexDirection="column">
          <Text>
            <Text color={item.isError ? 'red' : 'green'}>⏺ </Text>
            {item.label}
          </Text>
          <Text color={item.isError ? 'red' : undefined} dimColor={!item.isError}>{`  ⎿ ${item.summary}`}</Text>
          {item.detail.map((line, i) => (
            <Text key={i} dimColor>{`    ${line}`}</Text>
          ))}
          {item.detail.length > 0 && <Text dimColor>{'    (Ctrl-O shows the whole output)'}</Text>}
          {item.diff && item.diff.length > 0 && (
            <Box paddingLeft={4} flexDirection="column">
              <DiffLines lines={item.diff} />
              {item.moreDiffLines ? <Text dimColor>{`… ${item.moreDiffLines} more lines`}</Text> : null}
            </Box>
          )}
        </Box>
      );
    case 'note': {
      const color = item.tone === 'error' ? 'red' : item.tone === 'warn' ? 'yellow' : undefined;
      return (
        <Text color={color} dimColor={item.tone === 'dim'}>
          {item.text}
        </Text>
      );
    }
    default: {
      const unreachable: never = item;
      return unreachable;
    }
  }
}

/** A spinner with elapsed time: tokens while the model works, the call while a tool runs. */
function ActivityLine({ activity, tokens }: { activity: Activity; tokens: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, []);
  const elapsed = formatElapsed(now - activity.since);
  const frame = Spinner.FRAMES[Math.floor(now / 100) % Spinner.FRAMES.length];
  const text = activity.kind === 'model' ? `Thinking · ${elapsed} · ↓ ${formatTokens(tokens)} tokens` : `${activity.label} · ${elapsed}`;
  return (
    <Text>
      <Text color="magenta">{`${frame} `}</Text>
      {text}
      {activity.kind !== 'starting' && <Text dimColor> · Esc to interrupt</Text>}
    </Text>
  );
}

/** The mode as the status line says it: what it lets through, and that Shift-Tab changes it. */
function modeLabel(mode: string): string {
  if (mode === 'acceptEdits') return '⏵⏵ accept edits on (shift-tab)';
  if (mode === 'plan') return '⏸ plan mode (shift-tab)';
  if (mode === 'default') return 'default mode (shift-tab)';
  return `${mode} mode`;
}

function StatusLine({ state }: { state: TuiState }) {
  const cost = state.costUsd !== null ? ` · $${state.costUsd.toFixed(4)}` : state.price.known ? '' : ' · price unknown (/cost)';
  const tokens = `↑ ${formatTokens(state.usage.input_tokens)} ↓ ${formatTokens(state.usage.output_tokens)} tokens`;
  return (
    <Box paddingX={1}>
      <Text
        dimColor
      >{`${state.modelId} · session ${state.sessionId.slice(0, 8)} · ${tokens}${cost} · ${modeLabel(state.permissionMode)} · /help`}</Text>
    </Box>
  );
}
