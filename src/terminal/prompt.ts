import { statSync } from 'node:fs';
import path from 'node:path';
import type { ToolCall } from '../../machines/types.js';
import { answerChoices, decisionFor, type PermissionAnswer } from './answer.js';
import { describeRequest } from './request-view.js';
import { fileTextForDiff } from './edit-diff.js';
import { visible } from './visible.js';
import type { PermissionPrompt } from '../permissions/types.js';

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
  /** Absolute workspace root: "always" writes `<workspace>/.xagent/settings.local.json`. */
  workspace: string;
}

const MAX_TRIES = 3;

/**
 * The line prompt (`-p` on a terminal): shows the tool, the full command or the change, and reads
 * `y`es / `n`o / `a`lways. "always" saves allow rules (see `alwaysRules`) to
 * `.xagent/settings.local.json`. End of input, an abort or three unreadable answers are a denial.
 * @example
 * const prompt = createTerminalPrompt({ input: process.stdin, output: process.stderr, workspace });
 * const { decision } = await prompt({ call, pending, signal });
 */
export function createTerminalPrompt({ input, lines: openLines, output, workspace }: TerminalPromptOptions): PermissionPrompt {
  if (!input && !openLines) throw new Error('createTerminalPrompt needs input or lines');
  return async ({ call, pending, signal }) => {
    const context = { call, pending, workspace, note: (line: string) => output.write(`${line}\n`) };
    const answer = (a: PermissionAnswer) => decisionFor(a, context);
    if (signal.aborted) return answer({ kind: 'unanswered', why: 'aborted before answering' });
    const { rules, file } = answerChoices(call, workspace);
    const shown = describeRequest(call, pending.decidedBy, {
      existingSize: existingSize(call, workspace),
      fileText: call.name === 'edit_file' ? fileTextForDiff(call, workspace) : null,
    });
    output.write(`\n${shown.join('\n')}\n`);
    const always = rules.length > 0 ? `, [a]lways (saves ${rules.map((r) => `"${visible(r)}"`).join(', ')} to ${file})` : '';
    const question = `Allow? [y]es, [n]o${always}: `;

    const lines = openLines ? openLines(signal) : await readLines(input!, signal);
    try {
      for (let tries = 0; tries < MAX_TRIES; tries++) {
        if (lines.ask) lines.ask(question);
        else output.write(question);
        const line = await lines.next();
        if (line === null) return answer({ kind: 'unanswered', why: signal.aborted ? 'aborted' : 'no answer, input closed' });
        const reply = line.trim().toLowerCase();
        if (reply === 'y' || reply === 'yes') return answer({ kind: 'yes' });
        if (reply === 'n' || reply === 'no') return answer({ kind: 'no' });
        if ((reply === 'a' || reply === 'always') && rules.length > 0) return answer({ kind: 'always' });
        output.write(`Please answer y or n${rules.length > 0 ? ' or a' : ''}.\n`);
      }
      return answer({ kind: 'unanswered', why: `no valid answer after ${MAX_TRIES} tries` });
    } finally {
      lines.close();
    }
  };
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

/**
 * Lines from the input, one per `next()`; null at end of input or on abort. node:readline is
 * loaded here, when a question is asked, not by every `-p` run before its first request.
 */
async function readLines(input: NodeJS.ReadableStream, signal: AbortSignal): Promise<LineSource> {
  const { createInterface } = await import('node:readline');
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
