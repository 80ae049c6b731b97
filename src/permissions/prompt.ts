import { statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { alwaysRules, describeRequest, visible } from './request-view.js';
import { parseRules, type PermissionRule } from './rules.js';
import { addAllowRule, projectSettingsPath } from './settings.js';

export interface PromptRequest {
  call: ToolCall;
  /** The `ask` decision being put to the person; its decidedBy says why. */
  pending: PermissionDecision;
  signal: AbortSignal;
}

export interface PromptOutcome {
  decision: PermissionDecision;
  /** Allow rules "always" saved; the policy applies them for the rest of the session too. */
  savedRules: PermissionRule[];
}

/** Puts one `ask` to a person. */
export type PermissionPrompt = (request: PromptRequest) => Promise<PromptOutcome>;

/** Where answers come from: lines, one per `next()`; null at end of input or on abort. */
export interface LineSource {
  next(): Promise<string | null>;
  close(): void;
  /** Shows the question; a line editor that redraws its line must show it itself. Default: written to output. */
  ask?(question: string): void;
}

export interface TerminalPromptOptions {
  /** Answers are read from this stream, unless `lines` is given. */
  input?: NodeJS.ReadableStream;
  /** A line source shared with whoever else reads the terminal (the interactive REPL's readline). */
  lines?: (signal: AbortSignal) => LineSource;
  output: NodeJS.WritableStream;
  /** Absolute workspace root: "always" writes `<workspace>/.xagent/settings.json`. */
  workspace: string;
}

const MAX_TRIES = 3;

/**
 * The terminal prompt: shows the tool, the full command or the change, and reads
 * `y`es / `n`o / `a`lways. "always" saves exact allow rules (see `alwaysRules`) to the project
 * settings. End of input, an abort or three unreadable answers are a denial.
 * @example
 * const prompt = createTerminalPrompt({ input: process.stdin, output: process.stderr, workspace });
 * const { decision } = await prompt({ call, pending, signal });
 */
export function createTerminalPrompt({ input, lines: openLines, output, workspace }: TerminalPromptOptions): PermissionPrompt {
  if (!input && !openLines) throw new Error('createTerminalPrompt needs input or lines');
  return async ({ call, pending, signal }) => {
    const asked = `asked because ${pending.decidedBy}`;
    if (signal.aborted) return refuse(call, `user: aborted before answering (${asked})`);
    const rules = alwaysRules(call, workspace);
    output.write(`\n${describeRequest(call, pending.decidedBy, existingSize(call, workspace)).join('\n')}\n`);
    const settingsName = path.relative(workspace, projectSettingsPath(workspace));
    const always = rules.length > 0 ? `, [a]lways (saves ${rules.map((r) => `"${visible(r)}"`).join(', ')} to ${settingsName})` : '';
    const question = `Allow? [y]es, [n]o${always}: `;

    const lines = openLines ? openLines(signal) : readLines(input!, signal);
    try {
      for (let tries = 0; tries < MAX_TRIES; tries++) {
        if (lines.ask) lines.ask(question);
        else output.write(question);
        const line = await lines.next();
        if (line === null) return refuse(call, `user: ${signal.aborted ? 'aborted' : 'no answer, input closed'} (${asked})`);
        const answer = line.trim().toLowerCase();
        if (answer === 'y' || answer === 'yes') return { decision: { behavior: 'allow', decidedBy: `user: yes (${asked})` }, savedRules: [] };
        if (answer === 'n' || answer === 'no') return refuse(call, `user: no (${asked})`);
        if ((answer === 'a' || answer === 'always') && rules.length > 0) return saveAlways(rules, workspace, asked, output);
        output.write(`Please answer y or n${rules.length > 0 ? ' or a' : ''}.\n`);
      }
      return refuse(call, `user: no valid answer after ${MAX_TRIES} tries (${asked})`);
    } finally {
      lines.close();
    }
  };
}

function refuse(call: ToolCall, decidedBy: string): PromptOutcome {
  return { decision: { behavior: 'deny', decidedBy, message: `The user did not allow ${call.name} (${decidedBy}).` }, savedRules: [] };
}

function saveAlways(rules: string[], workspace: string, asked: string, output: NodeJS.WritableStream): PromptOutcome {
  try {
    const file = addAllowRule(workspace, rules);
    output.write(`Saved ${rules.map((r) => `"${visible(r)}"`).join(', ')} to ${file}.\n`);
    return {
      decision: { behavior: 'allow', decidedBy: `user: always (${asked}); saved allow ${rules.map((r) => `"${r}"`).join(', ')} to ${file}` },
      savedRules: parseRules(rules, 'allow', file),
    };
  } catch (error) {
    // The person said yes; failing to remember it must not turn that into a no.
    output.write(`Could not save the rule: ${(error as Error).message}. Allowed this once.\n`);
    return { decision: { behavior: 'allow', decidedBy: `user: always, not saved: ${(error as Error).message} (${asked})` }, savedRules: [] };
  }
}

function existingSize(call: ToolCall, workspace: string): number | undefined {
  if (call.name !== 'write_file') return undefined;
  const file = (call.input as { path?: unknown } | null)?.path;
  if (typeof file !== 'string') return undefined;
  try {
    const stats = statSync(path.resolve(workspace, file));
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}

/** Lines from the input, one per `next()`; null at end of input or on abort. */
function readLines(input: NodeJS.ReadableStream, signal: AbortSignal): LineSource {
  // terminal: false leaves echo and line editing to the terminal's own cooked mode.
  const rl = createInterface({ input, terminal: false });
  const queued: string[] = [];
  let waiting: ((line: string | null) => void) | undefined;
  let closed = false;
  const finish = () => {
    closed = true;
    waiting?.(null);
    waiting = undefined;
  };
  rl.on('line', (line) => {
    if (waiting) {
      waiting(line);
      waiting = undefined;
    } else queued.push(line);
  });
  rl.on('close', finish);
  const onAbort = () => rl.close();
  signal.addEventListener('abort', onAbort, { once: true });
  return {
    next: () => {
      const line = queued.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (closed || signal.aborted) return Promise.resolve(null);
      return new Promise((resolve) => (waiting = resolve));
    },
    close: () => {
      signal.removeEventListener('abort', onAbort);
      rl.close();
    },
  };
}
