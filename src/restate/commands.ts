import { hostname, userInfo } from 'node:os';
import { untilStopSignal } from '../run/signals.js';
import type { StopReason } from '../../machines/types.js';
import { UsageError } from '../errors/xagent-error.js';
import { visible } from '../terminal/visible.js';
import { listTasks, type ListedTask } from './admin-client.js';
import { RestateError } from './errors.js';
import { parseIdentityKey } from './identity-key.js';
import { acceptedFromSpec } from './spec-gate.js';
import { checkTaskSpec } from './task-spec-schema.js';
import { answerCall, submitTask, taskStatus, waitForTask } from './ingress-client.js';
import { taskSpecOf, type SubmitFlags } from './task-spec.js';
import type { CallAnswer, TaskStatus } from './task-status.js';
import { adminUrl, ingressUrl } from './urls.js';

/**
 * The task commands' actions (src/cli/restate-command.ts registers them and loads this file only
 * when one runs). Each resolves with its exit code: a RestateError's own (the server is down, no
 * such task...), or for `wait` the task's, as `-p` would exit.
 */
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** The CLI's exit code of a stop reason (`wait` exits as `-p` would). */
  exitCodeFor: (reason: StopReason) => number;
}

async function exitCodeOf(io: Io, action: () => Promise<number>): Promise<number> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof RestateError)) throw error;
    io.stderr.write(`xagent: ${visible(error.message)}\n`);
    return error.exitCode;
  }
}

export function serve(
  raw: {
    restate?: boolean;
    port?: string;
    host?: string;
    advertise?: string;
    restateAdmin?: string;
    identityKey?: string[];
    acceptFromSpec?: string[];
  },
  io: Io,
) {
  if (!raw.restate) throw new UsageError('xagent serve needs a backend: xagent serve --restate');
  const identityKeys = (raw.identityKey ?? []).map(parseIdentityKey);
  const acceptFromSpec = acceptedFromSpec(raw.acceptFromSpec ?? []);
  const port = raw.port === undefined ? 9080 : Number(raw.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535 || !/^\d+$/.test(raw.port ?? '0'))
    throw new UsageError(`--port "${raw.port}" is not a port: use a number from 0 to 65535 (0 picks a free one)`);
  return exitCodeOf(io, async () => {
    // The Restate SDK loads here and only here: no other command (and never -p) pays for it.
    const { serveWorker } = await import('./worker.js');
    return serveWorker({
      port,
      host: raw.host ?? '127.0.0.1',
      ...(raw.advertise ? { advertise: raw.advertise } : {}),
      admin: adminUrl(raw.restateAdmin, io.env),
      env: io.env,
      stderr: io.stderr,
      stopped: untilStopSignal(),
      identityKeys,
      acceptFromSpec,
    });
  });
}

export function submit(promptArgs: string[], raw: SubmitFlags & { restateUrl?: string }, io: Io) {
  const prompt = promptArgs.join(' ');
  const spec = taskSpecOf(prompt, raw, process.cwd(), io.env);
  // The worker checks it again (a spec may come from anywhere); here a bad one exits 2 before it is sent.
  const checked = checkTaskSpec(spec);
  if (!checked.ok) throw new UsageError(`the task spec is not valid: ${checked.problem.message}`);
  return exitCodeOf(io, async () => {
    io.stdout.write(`${await submitTask(ingressUrl(raw.restateUrl, io.env), spec)}\n`);
    return 0;
  });
}

export function wait(id: string, raw: { restateUrl?: string }, io: Io) {
  return exitCodeOf(io, async () => {
    const output = await waitForTask(ingressUrl(raw.restateUrl, io.env), id);
    io.stdout.write(`${JSON.stringify(output)}\n`);
    return io.exitCodeFor(output.reason as StopReason);
  });
}

export function tasks(id: string | undefined, raw: { json?: boolean; restateUrl?: string; restateAdmin?: string }, io: Io) {
  return exitCodeOf(io, async () => {
    if (id !== undefined) {
      const status = await taskStatus(ingressUrl(raw.restateUrl, io.env), id);
      io.stdout.write(raw.json ? `${JSON.stringify({ id, ...status })}\n` : describeTask(id, status));
      return 0;
    }
    const listed = await listTasks(adminUrl(raw.restateAdmin, io.env));
    io.stdout.write(raw.json ? `${JSON.stringify(listed.map(({ id, status }) => ({ id, ...status })))}\n` : taskTable(listed));
    return 0;
  });
}

export function answer(
  id: string,
  toolUseId: string,
  reply: CallAnswer['answer'],
  raw: { restateUrl?: string; as?: string; token?: string },
  io: Io,
) {
  const by = raw.as ?? `${userInfo().username}@${hostname()}`;
  const token = raw.token ?? io.env.XAGENT_APPROVAL_TOKEN;
  return exitCodeOf(io, async () => {
    await answerCall(ingressUrl(raw.restateUrl, io.env), id, { tool_use_id: toolUseId, answer: reply, by, ...(token ? { token } : {}) });
    const said = reply.kind === 'yes' ? 'allowed' : reply.kind === 'no' ? 'denied; the task stops' : 'denied; the model is told';
    io.stderr.write(`xagent: call ${toolUseId} of task ${id} ${said}\n`);
    return 0;
  });
}

function describeTask(id: string, status: TaskStatus): string {
  const lines = [
    `task ${id}`,
    `state: ${status.state}${status.reason ? ` (${status.reason})` : ''}`,
    `workspace: ${status.workspace}`,
    `turns: ${status.turn}, tool calls: ${status.tool_calls}`,
    ...(status.error ? [`error: ${status.error}`] : []),
    ...(status.answered ?? []).map((call) => `answered: ${call.tool_use_id} ${call.answer} by ${call.by}`),
    ...(status.inspector ? [`inspector: ${status.inspector} (on the worker's machine)`] : []),
  ];
  for (const call of status.waiting) {
    lines.push(
      `waiting: ${call.tool_use_id} ${call.name} ${JSON.stringify(call.input).slice(0, 200)} (asked because ${call.asked_because})`,
      `  xagent approve ${id} ${call.tool_use_id}   |   xagent deny ${id} ${call.tool_use_id} [--message "..."]`,
    );
  }
  return `${lines.map(visible).join('\n')}\n`;
}

function taskTable(listed: ListedTask[]): string {
  if (listed.length === 0) return 'No tasks yet (xagent submit -p "task" starts one).\n';
  const rows = listed.map(({ id, status }) => [
    id,
    status.state + (status.reason ? ` (${status.reason})` : ''),
    String(status.turn),
    status.waiting.map((call) => call.tool_use_id).join(',') || '-',
    status.prompt.replace(/\s+/g, ' ').slice(0, 50),
  ]);
  const header = ['ID', 'STATE', 'TURN', 'WAITING', 'PROMPT'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  return `${[header, ...rows]
    .map((row) =>
      visible(
        row
          .map((cell, i) => cell.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      ),
    )
    .join('\n')}\n`;
}
