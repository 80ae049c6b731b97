import path from 'node:path';
import { bwrapArgs } from './bwrap-args.js';
import { findBwrap } from './find-bwrap.js';
import { DEFAULT_HIDDEN, expandHome, homeOf, planMounts } from './mount-plan.js';
import { holdPlaceholders } from './placeholders.js';
import { withoutSecretEnv } from './secret-env.js';
import type { SandboxSettings } from './sandbox-settings.js';

/** A process to start: what `child_process.spawn` takes. */
export interface ProcessSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

/** The same process, as a bwrap invocation. Call `release()` once it has exited. */
export interface SandboxedProcess {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Removes the placeholders made for this process (see placeholders.ts); safe to call twice. */
  release(): void;
}

export interface SandboxOptions {
  /** Absolute path of bwrap. */
  bwrap: string;
  /** Real path of the workspace: the only writable place. */
  workspace: string;
  network: boolean;
  /** Absolute paths made invisible inside; missing ones are skipped per call. */
  hidden: readonly string[];
  /** Where placeholders are listed for the sweep after a crash (placeholders.ts); none: not listed. */
  journal?: string;
}

/** A run's sandbox: how the bash tool, hooks and stdio MCP servers start their processes. */
export interface Sandbox {
  readonly options: SandboxOptions;
  wrap(spec: ProcessSpec): SandboxedProcess;
  /** One sentence for the model (the bash tool's description). */
  readonly summary: string;
}

/** Where a run lists the placeholders it holds, and the next run sweeps them (placeholders.ts). */
export function placeholderJournal(xagentHome: string): string {
  return path.join(path.resolve(xagentHome), 'sandbox');
}

/**
 * Turns `{command, args, cwd, env}` into the bwrap invocation that runs it sandboxed. The one
 * function every sandboxed process goes through: the bash tool uses it, and hooks and stdio MCP
 * servers should too (`spawn(p.command, p.args, { cwd: p.cwd, env: p.env })`, then `p.release()`
 * when the process has exited).
 * @example
 * const p = wrapProcess({ command: 'bash', args: ['-c', 'make'], cwd: ws, env: process.env }, sandbox.options);
 * const child = spawn(p.command, p.args, { cwd: p.cwd, env: p.env });
 * child.once('exit', p.release);
 */
export function wrapProcess(spec: ProcessSpec, options: SandboxOptions): SandboxedProcess {
  // Throws ProtectedLinkError: a protected path that is a link cannot be kept read-only.
  const plan = planMounts({ workspace: options.workspace, hidden: options.hidden });
  const release = holdPlaceholders(plan.placeholders, options.journal);
  // The agent's credentials and every other secret-named variable stay outside (secret-env.ts).
  const env = withoutSecretEnv(spec.env ?? process.env);
  // The real TMPDIR may be anywhere, and everywhere but the workspace is read-only: use the private /tmp.
  delete env.TMPDIR;
  const args = bwrapArgs({ mounts: plan.mounts, network: options.network, cwd: spec.cwd, command: spec.command, args: spec.args });
  return { command: options.bwrap, args, cwd: spec.cwd, env, release };
}

/**
 * The sandbox a run uses, from its settings: bwrap from the PATH, the secrets to hide (from HOME
 * in `env`, so a fake home works), the xagent home hidden too.
 * @example const sandbox = createSandbox({ settings, workspace, xagentHome: home, env: process.env });
 * @throws SandboxUnavailableError when bwrap is not on the PATH
 */
export function createSandbox(input: {
  settings: Pick<SandboxSettings, 'network' | 'hide'>;
  workspace: string;
  xagentHome: string;
  env: NodeJS.ProcessEnv;
}): Sandbox {
  const home = homeOf(input.env);
  const hidden = [...DEFAULT_HIDDEN, ...input.settings.hide].map((entry) => expandHome(entry, home));
  // The user's runtime folder holds the session bus, agent and keyring sockets: through the bus a
  // command could ask systemd to start anything outside the sandbox.
  const runtime = input.env.XDG_RUNTIME_DIR || (typeof process.getuid === 'function' ? `/run/user/${process.getuid()}` : undefined);
  if (runtime && path.isAbsolute(runtime)) hidden.push(runtime);
  hidden.push(path.resolve(input.xagentHome));
  const options: SandboxOptions = {
    bwrap: findBwrap(input.env),
    workspace: input.workspace,
    network: input.settings.network,
    hidden,
    journal: placeholderJournal(input.xagentHome),
  };
  return { options, wrap: (spec) => wrapProcess(spec, options), summary: describeSandbox(options) };
}

/** One sentence for the model, so it does not spend calls finding the walls. */
export function describeSandbox(options: Pick<SandboxOptions, 'network'>): string {
  return (
    'Commands run in a sandbox: only the workspace is writable (its .xagent, .claude, .mcp.json, .git/hooks, .git/config and .git/commondir are not, ' +
    'nor a .git that is a file or does not exist), ' +
    "/tmp is private to each command, the home folder's credentials are hidden, " +
    (options.network ? 'the network is available, ' : 'there is no network, ') +
    'and every process ends when the command does.'
  );
}
