import type { EvidenceRecord } from '../sessions/records.js';
import type { AgentEvent, QueryResult } from '../engine/events.js';
import { decisionFor, type PermissionAnswer } from '../terminal/answer.js';
import { dialogView } from '../terminal/dialog-view.js';
import type { PermissionPrompt } from '../permissions/types.js';
import type { SessionPermissionPolicy } from '../permissions/index.js';
import { visible } from '../terminal/visible.js';
import type { RunInspector } from '../run/run-inspector.js';
import { describeActivity } from '../terminal/tool-activity.js';
import type { PreparedRun } from '../run/prepare-run.js';
import { policyFor, type RunConfig } from '../run/run-config.js';
import type { PermissionMode } from '../permissions/types.js';
import type { TuiStore } from './store.js';
import { taskRenderer } from './task-renderer.js';
import { sessionTotals } from './session-totals.js';
import { addToTranscripts, type AgentTranscripts } from './agent-transcript.js';

/** What Shift-Tab cycles through, in order. */
const CYCLED_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan'];
/** The tools acceptEdits lets through (check-permission's EDIT_TOOLS): "don't ask again" on them turns the mode on. */
const EDIT_TOOLS = new Set(['write_file', 'edit_file']);
/** Ctrl-O prints at most this many lines; more would push the whole session out of the scrollback. */
const EXPANDED_LINES = 400;

/**
 * Runs the tasks of one interactive session for the terminal UI: each prompt is a task in the
 * same conversation, its events become store updates, permission questions become the dialog.
 * The session can be swapped (/clear, /resume); the permission policy lives as long as the UI,
 * so "don't ask again" answers hold for every later task.
 */
export class TuiController {
  run: PreparedRun;
  readonly config: RunConfig;
  readonly policy: SessionPermissionPolicy;
  /** Inspectors started by /inspect; each task feeds them. */
  readonly inspectors: RunInspector[] = [];
  /** True once Shift-Tab, /permissions mode or "don't ask again" on an edit changed the mode (/permissions says so). */
  modeChangedInSession = false;
  private running: { controller: AbortController; finished: Promise<QueryResult> } | null = null;
  private readonly cleanups: Array<() => unknown> = [];
  /** The running task's subagent transcripts, by agent path (paths are numbered again in each task). */
  private transcripts: AgentTranscripts = new Map();

  constructor(
    private readonly initial: PreparedRun,
    readonly store: TuiStore,
  ) {
    this.run = initial;
    this.config = initial.config;
    this.policy = policyFor(this.config, this.prompt);
  }

  get session() {
    return this.run.session;
  }

  /**
   * Changes the model or the limits for the rest of the session (/config, /model): in this run's
   * config, which each task reads when it starts, and in the first run's, which /clear and /resume copy.
   */
  updateConfig(changes: Partial<Pick<RunConfig, 'model' | 'modelId' | 'modelLabel' | 'limits'>>): void {
    Object.assign(this.config, changes);
    if (this.run.config !== this.config) Object.assign(this.run.config, changes);
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves once no task runs (at once when none does); a task that fails counts as ended. */
  async whenIdle(): Promise<void> {
    while (this.running) await this.running.finished.catch(() => undefined);
  }

  /** The permission mode for the rest of the session: the policy decides with it from the next call on. */
  setMode(mode: PermissionMode): void {
    this.modeChangedInSession = true;
    this.policy.setMode(mode);
    this.config.permissionMode = mode;
    this.store.update({ permissionMode: mode });
  }

  /** Shift-Tab: default → acceptEdits → plan → default (a mode given by flag, such as dontAsk, goes to default). */
  cycleMode(): PermissionMode {
    const index = CYCLED_MODES.indexOf(this.policy.mode);
    const next = CYCLED_MODES[(index + 1) % CYCLED_MODES.length] ?? 'default';
    this.setMode(next);
    return next;
  }

  /**
   * Ctrl-O. On a subagent (the last one still running, else the last tool line's when it was a
   * subagent's task call): opens its transcript over the input. Otherwise: prints the last tool's
   * whole output (up to EXPANDED_LINES lines) into the transcript.
   */
  expandLastOutput(): void {
    const { subagents, lastOutput } = this.store.get();
    const running = [...subagents].reverse().find((line) => line.doneMs === null);
    const entries = running && this.transcripts.get(running.agent);
    const view = running && entries ? { title: running.title, agent: running.agent, entries } : lastOutput?.subagent;
    if (view) {
      this.store.update({ transcript: view });
      return;
    }
    const last = lastOutput;
    if (!last) {
      this.store.update({ hint: "No tool output yet: Ctrl-O shows the last tool call's whole output." });
      return;
    }
    const lines = last.content.split('\n');
    const shown = lines.slice(0, EXPANDED_LINES).map((line) => `    ${visible(line)}`);
    const more =
      lines.length > EXPANDED_LINES
        ? [`    … ${lines.length - EXPANDED_LINES} more lines (the session's transcript.jsonl has them all)`]
        : [];
    this.store.note([`⏺ ${last.label} · the whole output, ${lines.length} lines:`, ...shown, ...more].join('\n'));
  }

  /** Esc or Ctrl-O in the transcript view: back to the input. */
  closeTranscript(): void {
    this.store.update({ transcript: null });
  }

  /** A subagent's evidence line: onto its transcript, and onto the open view when that shows this task's agent. */
  private readonly onEvidence = (record: EvidenceRecord): void => {
    const before = this.transcripts;
    this.transcripts = addToTranscripts(before, record);
    if (this.transcripts === before) return;
    const view = this.store.get().transcript;
    const entries = view && this.transcripts.get(view.agent);
    if (view && entries && before.get(view.agent) === view.entries && entries !== view.entries)
      this.store.update({ transcript: { ...view, entries } });
  };

  /** Stops the running task (Esc, Ctrl-C); true if there was one. */
  interrupt(): boolean {
    if (!this.running) return false;
    this.running.controller.abort();
    return true;
  }

  /** Resolves when the running task (if any) has finished. */
  async settle(): Promise<void> {
    await this.running?.finished.catch(() => undefined);
  }

  /** Runs when the UI closes (an inspector started by /inspect stops). */
  onExit(cleanup: () => unknown): void {
    this.cleanups.push(cleanup);
  }

  /** Stops the running task, waits for it, runs the cleanups and lets the session go (the first run is its opener's to close). */
  async close(): Promise<void> {
    this.interrupt();
    await this.settle();
    for (const cleanup of this.cleanups.splice(0)) await cleanup();
    await this.run.session.settled();
    this.run.session.release();
    if (this.run !== this.initial) await this.run.close();
  }

  /** Goes on in another session (/clear, /resume). */
  async switchRun(next: PreparedRun): Promise<void> {
    const previous = this.run;
    this.run = next;
    await previous.session.settled();
    previous.session.release();
    if (previous !== this.initial) await previous.close();
    this.store.update({ sessionId: next.session.sessionId, ...sessionTotals(next.session) });
  }

  /** Puts a question to the person through the dialog; the permission layer turns the answer into a decision. */
  private readonly prompt: PermissionPrompt = ({ call, pending, signal }) =>
    new Promise((resolve) => {
      const { store } = this;
      const context = { call, pending, workspace: this.config.workspace, note: (line: string) => this.store.note(visible(line), 'dim') };
      let answered = false;
      const answer = (a: PermissionAnswer) => {
        if (answered) return;
        answered = true;
        if (a.kind === 'feedback') {
          store.add({
            kind: 'tool',
            label: describeActivity(call),
            summary: `declined by you: ${visible(a.text)}`,
            isError: true,
            detail: [],
          });
        }
        signal.removeEventListener('abort', onAbort);
        this.store.update({ dialog: null });
        resolve(decisionFor(a, context));
      };
      const onAbort = () => answer({ kind: 'unanswered', why: 'aborted before answering' });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      // "Don't ask again" on a file edit means edits: accept edits for the session, not one file's rule.
      const acceptEdits = EDIT_TOOLS.has(call.name)
        ? () => {
            this.setMode('acceptEdits');
            answer({ kind: 'yes' });
          }
        : undefined;
      this.store.update({
        dialog: { view: dialogView(call, pending, this.config.workspace), answer, ...(acceptEdits ? { acceptEdits } : {}) },
        activity: null,
      });
    });

  async runTask(prompt: string): Promise<QueryResult | null> {
    if (this.running) return null;
    const { store } = this;
    store.add({ kind: 'user', text: prompt });
    store.update({ running: true, hint: '' });
    const controller = new AbortController();
    const feeds = this.inspectors.map((inspector) => inspector.observerFor(prompt));
    this.transcripts = new Map();
    const finished = this.run.runTask({
      prompt,
      permissions: this.policy,
      signal: controller.signal,
      renderer: taskRenderer(this.store, this.config, (agent) => this.transcripts.get(agent)),
      onEvidence: (record: EvidenceRecord) => {
        this.onEvidence(record);
        for (const feed of feeds) feed.evidence(record);
      },
      ...(feeds.length > 0
        ? {
            observe: (event: AgentEvent) => {
              for (const feed of feeds) feed(event);
            },
          }
        : {}),
    });
    this.running = { controller, finished };
    try {
      return await finished;
    } catch (error) {
      store.note(`xagent: ${error instanceof Error ? error.message : String(error)}`, 'error');
      return null;
    } finally {
      this.running = null;
      store.update({ running: false, activity: null, dialog: null, streaming: '' });
    }
  }
}
