/**
 * Drives the built `xagent acp` as a child process through the ACP SDK's own client side
 * (`client()` + `connectWith`, the SDK's successor of ClientSideConnection), and keeps every line
 * the agent wrote on stdout, so a test can check each one against the protocol's JSON schema.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientContext,
  type NewSessionRequest,
  type ReadTextFileRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CLI, TRUSTED_ENV } from '../support/run-cli.js';

export interface AcpChild {
  child: ChildProcessWithoutNullStreams;
  /** Every line the agent wrote on stdout, as written. */
  stdoutLines: string[];
  /** Every line written to the agent's stdin (by the SDK client or by hand). */
  sentLines: string[];
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

/** Starts `xagent acp` with a clean environment (the test's workspace trusted) plus `env`. */
export function startAcp(args: string[], env: Record<string, string | undefined>): AcpChild {
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NO_COLOR: '1',
    ...TRUSTED_ENV,
  };
  // An undefined value leaves the variable out (XAGENT_TRUST: undefined tests the trust gate).
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[key];
    else childEnv[key] = value;
  }
  const child = spawn(process.execPath, [CLI, 'acp', ...args], {
    env: childEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdoutLines: string[] = [];
  const sentLines: string[] = [];
  const write = child.stdin.write.bind(child.stdin) as (chunk: unknown, ...rest: unknown[]) => boolean;
  // Writable.toWeb writes through this method too, so the SDK client's lines are recorded as well.
  child.stdin.write = ((chunk: unknown, ...rest: unknown[]) => {
    sentLines.push(
      ...Buffer.from(chunk as Uint8Array | string)
        .toString()
        .split('\n')
        .filter((line) => line !== ''),
    );
    return write(chunk, ...rest);
  }) as typeof child.stdin.write;
  let partial = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    stdoutLines.push(...lines.filter((line) => line !== ''));
    if (process.env.XAGENT_ACP_DEBUG) for (const line of lines) process.stderr.write(`agent> ${line}\n`);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (process.env.XAGENT_ACP_DEBUG) process.stderr.write(`agent stderr: ${chunk}`);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, stdoutLines, sentLines, stderr: () => stderr, exited };
}

/** What the fake editor does when the agent asks: answer permission questions, serve buffers. */
export interface EditorBehaviour {
  /** Picks an option for each permission request; default: the first allow_once. */
  permission?: (request: RequestPermissionRequest) => RequestPermissionResponse | Promise<RequestPermissionResponse>;
  /** Offered as fs.readTextFile when given: absolute path → the buffer's text (unsaved edits). */
  buffers?: Map<string, string>;
  /** Offers fs.writeTextFile too: writes go into `buffers` (as an editor's unsaved buffer), not to disk. */
  writable?: boolean;
}

export interface EditorLog {
  updates: SessionNotification[];
  permissions: RequestPermissionRequest[];
  reads: ReadTextFileRequest[];
  writes: WriteTextFileRequest[];
}

/** Picks the option of this kind from a permission request. */
export function choose(request: RequestPermissionRequest, kind: string): RequestPermissionResponse {
  const option = request.options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option in ${JSON.stringify(request.options)}`);
  return { outcome: { outcome: 'selected', optionId: option.optionId } };
}

/**
 * Connects the SDK's client to the child and runs `op`; then closes stdin and waits for the agent
 * to exit. The log holds every update, permission request and file read the editor saw.
 */
export async function withEditor<T>(
  acp: AcpChild,
  behaviour: EditorBehaviour,
  op: (context: ClientContext, log: EditorLog) => Promise<T>,
): Promise<{ value: T; log: EditorLog; code: number | null }> {
  const log: EditorLog = { updates: [], permissions: [], reads: [], writes: [] };
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      log.updates.push(params);
    })
    .onRequest('session/request_permission', async ({ params }) => {
      log.permissions.push(params);
      return behaviour.permission ? behaviour.permission(params) : choose(params, 'allow_once');
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      log.reads.push(params);
      const text = behaviour.buffers?.get(params.path);
      if (text === undefined) throw new Error(`no buffer for ${params.path}`);
      const lines = text.split('\n');
      const from = (params.line ?? 1) - 1;
      return { content: lines.slice(from, params.limit ? from + params.limit : undefined).join('\n') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      if (!behaviour.writable || !behaviour.buffers) throw new Error('this editor does not write files');
      log.writes.push(params);
      behaviour.buffers.set(params.path, params.content);
      return {};
    });
  const stream = ndJsonStream(
    Writable.toWeb(acp.child.stdin) as WritableStream<Uint8Array>,
    new ReadableStream<Uint8Array>({
      start(controller) {
        // The SDK may have cancelled the stream already (the connection closed first): late output is dropped.
        acp.child.stdout.on('data', (chunk: Buffer) => {
          try {
            controller.enqueue(new Uint8Array(chunk));
          } catch {}
        });
        acp.child.stdout.on('end', () => {
          try {
            controller.close();
          } catch {}
        });
      },
    }),
  );
  const value = await app.connectWith(stream, (context) => op(context, log));
  if (!acp.child.stdin.writableEnded) acp.child.stdin.end();
  const code = await acp.exited;
  return { value, log, code };
}

/** The initialize request every test starts with; `fs` offers the editor's buffers. */
export function initialize(context: ClientContext, fs: { read?: boolean; write?: boolean } = {}) {
  return context.request('initialize', {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: fs.read === true, writeTextFile: fs.write === true } },
  });
}

/** A new session in `cwd`, with the editor's MCP servers if any. */
export function newSession(context: ClientContext, cwd: string, mcpServers: NewSessionRequest['mcpServers'] = []) {
  return context.request('session/new', { cwd, mcpServers });
}

/** A prompt of one text block, as a person types it in the editor. */
export function promptText(context: ClientContext, sessionId: string, text: string) {
  return context.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
}

const require = createRequire(import.meta.url);
const schema = require('@agentclientprotocol/sdk/schema/v1/schema.json') as { anyOf: unknown[]; $defs: Record<string, unknown> };
const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema({ $id: 'acp', $defs: schema.$defs });
const def = (name: string) => ajv.compile({ $ref: `acp#/$defs/${name}` });
// The schema's first branch: every message an agent may send (request, response, notification).
const agentMessage = ajv.compile({ $defs: schema.$defs, ...(schema.anyOf[0] as object) });
// That branch lets any params through as an extension; each method the agent uses is held to its own type.
const agentCalls: Record<string, ReturnType<typeof def>> = {
  'session/update': def('SessionNotification'),
  'session/request_permission': def('RequestPermissionRequest'),
  'fs/read_text_file': def('ReadTextFileRequest'),
  'fs/write_text_file': def('WriteTextFileRequest'),
  // Withdraws a question the agent asked (a permission request when the turn is cancelled).
  '$/cancel_request': def('CancelRequestNotification'),
};
const agentResults: Record<string, ReturnType<typeof def>> = {
  initialize: def('InitializeResponse'),
  'session/new': def('NewSessionResponse'),
  'session/load': def('LoadSessionResponse'),
  'session/prompt': def('PromptResponse'),
  'session/set_mode': def('SetSessionModeResponse'),
};
const errorObject = def('Error');

/**
 * The lines that are not a JSON-RPC message the ACP v1 schema accepts from an agent, with why:
 * the message's shape, then its params (by method) or its result (by the method of the request it
 * answers, from `sent`, the lines the client wrote).
 */
export function invalidAgentLines(lines: readonly string[], sent: readonly string[] = []): string[] {
  const methods = new Map<unknown, string>();
  for (const line of sent) {
    try {
      const message = JSON.parse(line) as { id?: unknown; method?: unknown };
      if (message.id !== undefined && typeof message.method === 'string') methods.set(message.id, message.method);
    } catch {
      // a malformed line the test sent on purpose
    }
  }
  return lines.flatMap((line) => {
    let message: { method?: string; params?: unknown; id?: unknown; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return [`not JSON: ${line}`];
    }
    const problem = (validate: ReturnType<typeof def>, value: unknown) =>
      validate(value) ? [] : [`${line}\n  ${JSON.stringify(validate.errors?.slice(0, 3))}`];
    if (!agentMessage(message)) return problem(agentMessage, message);
    if (typeof message.method === 'string') {
      const validate = agentCalls[message.method];
      return validate ? problem(validate, message.params) : [`unexpected method from the agent: ${line}`];
    }
    if (message.error !== undefined) return problem(errorObject, message.error);
    const method = methods.get(message.id);
    const validate = method === undefined ? undefined : agentResults[method];
    return validate ? problem(validate, message.result) : [`a result to no request the client sent: ${line}`];
  });
}

/** The session/update kinds seen, in order (for readable failures). */
export function kinds(log: EditorLog): string[] {
  return log.updates.map((u) => u.update.sessionUpdate);
}

/** Resolves once `check` is true, polling; rejects after `ms` with `what`. */
export async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
