import type { SubagentLine } from './subagent-lines.js';
import type { TranscriptEntry } from './agent-transcript.js';
import type { ToolCall, Usage } from '../../machines/types.js';
import type { PermissionAnswer } from '../terminal/answer.js';
import type { DialogView } from '../terminal/dialog-view.js';
import type { DiffLine } from '../terminal/edit-diff.js';

/**
 * The terminal UI's state, outside React: the task runner and the slash commands change it,
 * the components read it (useSyncExternalStore). Finished items are appended, never rewritten,
 * so Ink's <Static> prints each one once into the scrollback.
 */

export type Item =
  | { id: number; kind: 'user'; text: string }
  | { id: number; kind: 'assistant'; text: string }
  | {
      id: number;
      kind: 'tool';
      label: string;
      summary: string;
      isError: boolean;
      detail: string[];
      /** An applied edit's diff (its first lines) and how many lines of it are left out. */
      diff?: DiffLine[];
      moreDiffLines?: number;
    }
  | { id: number; kind: 'note'; text: string; tone: 'info' | 'error' | 'warn' | 'dim' };

export type Activity =
  | { kind: 'model'; since: number }
  | { kind: 'tool'; label: string; since: number; call: ToolCall }
  /** Before the first task can run: the MCP servers starting. */
  | { kind: 'starting'; label: string; since: number };

export interface DialogRequest {
  view: DialogView;
  answer(answer: PermissionAnswer): void;
  /** On a file edit: "yes, and don't ask again" turns on accept edits for the session. */
  acceptEdits?: () => void;
}

/** A question with numbered answers: `pick` gets the chosen index, or null for Esc. */
export interface ChoiceRequest {
  title: string[];
  options: string[];
  /** Shown under the options, dimmed (what the choice cannot do). */
  footer?: string;
  pick(index: number | null): void;
}

/** A subagent's transcript open over the input (Ctrl-O): its title (`scout(Read the source)`), agent path and entries. */
export interface TranscriptView {
  title: string;
  agent: string;
  entries: readonly TranscriptEntry[];
}

export interface TuiState {
  items: Item[];
  /** The text of the model turn streaming now. */
  streaming: string;
  activity: Activity | null;
  dialog: DialogRequest | null;
  /** A question with numbered answers (/rewind's), shown instead of the input. */
  choice: ChoiceRequest | null;
  running: boolean;
  sessionId: string;
  modelId: string;
  permissionMode: string;
  /** This session's tokens, across tasks. */
  usage: Usage;
  /** Output tokens of the turn streaming now, estimated from its text until the turn's usage arrives. */
  turnTokens: number;
  /** USD, when the result said (null: the price is not known). */
  costUsd: number | null;
  /** Where the model's price comes from, or how to set it (src/model/cost.ts's describePrice). */
  price: { known: boolean; text: string };
  /** A hint under the input (Ctrl-C again to leave). */
  hint: string;
  /** The last tool's call and whole output, for Ctrl-O; for a subagent's task call, the subagent's transcript as it ended. */
  lastOutput: { label: string; content: string; subagent?: TranscriptView } | null;
  /** The subagent transcript Ctrl-O opened, shown instead of the input until Esc or Ctrl-O. */
  transcript: TranscriptView | null;
  /** The subagents running now, one line each. */
  subagents: SubagentLine[];
}

export type ItemBody = Item extends infer I ? (I extends Item ? Omit<I, 'id'> : never) : never;

export class TuiStore {
  private state: TuiState;
  private readonly listeners = new Set<() => void>();
  private nextId = 1;

  constructor(
    initial: Pick<TuiState, 'sessionId' | 'modelId' | 'permissionMode' | 'price'> & Partial<Pick<TuiState, 'usage' | 'costUsd'>>,
  ) {
    this.state = {
      items: [],
      streaming: '',
      activity: null,
      dialog: null,
      choice: null,
      running: false,
      usage: { input_tokens: 0, output_tokens: 0 },
      turnTokens: 0,
      costUsd: null,
      hint: '',
      lastOutput: null,
      transcript: null,
      subagents: [],
      ...initial,
    };
  }

  get = (): TuiState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  update(changes: Partial<TuiState>): void {
    this.state = { ...this.state, ...changes };
    for (const listener of this.listeners) listener();
  }

  add(...bodies: ItemBody[]): void {
    this.update({ items: [...this.state.items, ...bodies.map((body) => ({ ...body, id: this.nextId++ }) as Item)] });
  }

  note(text: string, tone: 'info' | 'error' | 'warn' | 'dim' = 'info'): void {
    this.add({ kind: 'note', text, tone });
  }
}
