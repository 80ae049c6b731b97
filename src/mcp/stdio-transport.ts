import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killProcessGroup, RUN_TAG, trackGroup, untrackGroup } from '../system/process-group.js';
import type { CommandSandbox } from '../tools/types.js';
import { StderrTail } from './stderr-tail.js';

/**
 * A stdio MCP server as a transport for the SDK's Client: newline-delimited JSON-RPC over the
 * child's stdin and stdout. Unlike the SDK's StdioClientTransport, the server runs in a process
 * group of its own (`detached: true`), so closing it ends the whole tree (SIGTERM, then SIGKILL to
 * -pid), and its stderr is kept (the last lines) for error messages instead of printed over the UI.
 */

/**
 * What a server process inherits from xagent's environment; anything else it gets from its
 * config's `env`. RUN_TAG too: a process the server starts that leaves its group (setsid) and its
 * parent still carries it, and ends with the run.
 */
const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', RUN_TAG];

export interface ProcessSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Runs the server inside the OS sandbox (--sandbox). */
  sandbox?: CommandSandbox;
}

// Groups still running when the process exits (process.exit on a second Ctrl-C, an uncaught error) are SIGKILLed.
const live = new Set<number>();
let exitHookInstalled = false;
function killLiveGroupsOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const pgid of live) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * @example
 * const transport = new ProcessTransport({ command: 'node', args: ['server.js'], env: {}, cwd: workspace });
 * await new Client({ name: 'xagent', version }).connect(transport);
 */
export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | undefined;
  private readonly lines = new LineBuffer();
  readonly stderr = new StderrTail();
  /** Why the connection ended, when the server (not xagent) ended it: an exit, or a protocol breach. */
  private ending: string | undefined;
  private closing = false;
  private closed = false;

  constructor(private readonly spec: ProcessSpec) {}

  /** Why the server stopped (exit code or signal, or what it sent), with its last stderr lines; undefined while it runs. */
  problem(): string | undefined {
    if (this.ending === undefined) return undefined;
    const tail = this.stderr.text();
    return tail ? `${this.ending}; its last stderr: ${tail}` : this.ending;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessTransport already started');
    const env: Record<string, string> = {};
    for (const key of INHERITED_ENV) if (process.env[key] !== undefined) env[key] = process.env[key] as string;
    Object.assign(env, this.spec.env);
    // The run's tag finds what the server leaves behind: no settings or config entry may change it.
    if (process.env[RUN_TAG] !== undefined) env[RUN_TAG] = process.env[RUN_TAG] as string;
    const wrapped = this.spec.sandbox
      ? this.spec.sandbox.wrap({ command: this.spec.command, args: this.spec.args, cwd: this.spec.cwd, env })
      : { command: this.spec.command, args: this.spec.args, cwd: this.spec.cwd, env, release() {} };
    return new Promise((resolve, reject) => {
      const child = spawn(wrapped.command, wrapped.args, {
        cwd: wrapped.cwd,
        env: wrapped.env,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      this.child = child;
      child.once('error', (error) => {
        this.ending ??= `cannot run "${this.spec.command}": ${error.message}`;
        wrapped.release();
        reject(new Error(this.ending));
        this.finish();
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) {
          live.add(child.pid);
          trackGroup(child.pid);
          killLiveGroupsOnExit();
        }
        resolve();
      });
      // 'close' comes once stdout and stderr are drained (their last lines read), which a
      // grandchild holding them open can delay: it is awaited only after the group is stopped.
      const drained = new Promise<void>((resolve) => child.once('close', () => resolve()));
      child.once('exit', (code, signal) => {
        wrapped.release();
        if (!this.closing) this.ending ??= signal ? `it was killed by ${signal}` : `it exited with code ${code}`;
        // Its own children may still hold the group: end them too.
        void this.stopGroup()
          .then(() => Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 1000).unref())]))
          .then(() => this.finish());
      });
      child.stdin?.on('error', () => undefined);
      child.stdout?.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr?.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    });
  }

  private read(chunk: Buffer): void {
    if (this.ending !== undefined) return;
    let line: string | undefined;
    try {
      for (line of this.lines.push(chunk)) {
        if (line.trim() === '') continue;
        this.onmessage?.(deserializeMessage(line));
      }
    } catch (error) {
      // A line that is not JSON-RPC breaks the protocol (stdout is the server's channel to us): stop the server.
      const what = line === undefined ? (error as Error).message : `"${clip(line)}"`;
      this.ending = `it sent something on stdout that is not a JSON-RPC message (${what}), so it was stopped`;
      this.onerror?.(new Error(this.ending));
      void this.close();
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.ending !== undefined)
      return Promise.reject(new Error(this.problem() ?? 'the server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Stops the server's whole process tree and resolves once it is gone. */
  async close(): Promise<void> {
    this.closing = true;
    await this.stopGroup();
    this.finish();
  }

  private async stopGroup(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    this.child?.stdin?.destroy();
    await killProcessGroup(pid, { graceMs: 2000 });
    live.delete(pid);
    untrackGroup(pid);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.lines.clear();
    this.onclose?.();
  }
}

/** Splits a byte stream into lines; a line longer than `max` bytes is a protocol breach. */
class LineBuffer {
  private pending: Buffer | undefined;
  constructor(private readonly max = 10 * 1024 * 1024) {}

  push(chunk: Buffer): string[] {
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const lines: string[] = [];
    for (let end = data.indexOf(10); end >= 0; end = data.indexOf(10)) {
      lines.push(data.toString('utf8', 0, end).replace(/\r$/, ''));
      data = data.subarray(end + 1);
    }
    if (data.length > this.max) throw new Error(`a line of more than ${this.max} bytes`);
    this.pending = data.length > 0 ? data : undefined;
    return lines;
  }

  clear(): void {
    this.pending = undefined;
  }
}

function clip(text: string, max = 200): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max)}…`;
}
