import { createInterface } from 'node:readline';
import type { PermissionRule } from '../permissions/rules.js';
import { describeItems } from '../trust/gate.js';
import { ruleItem, type TrustItem } from '../trust/project-items.js';
import { rememberTrust } from '../trust/trust-store.js';
import type { RunConfig } from './run-config.js';
import { UntrustedProjectError } from '../errors/xagent-error.js';

/** The flag and the variable that trust a workspace's project files for one run. */
export const TRUST_FLAG = '--trust';
export const TRUST_ENV = 'XAGENT_TRUST';

/** What a run left out until the person trusts it: the items, and the config's values with them in. */
export interface UntrustedProject {
  items: TrustItem[];
  withThem: Pick<RunConfig, 'rules' | 'hooks' | 'mcpServers' | 'permissionMode' | 'agents' | 'env'> & { outsideImports?: boolean };
}

/**
 * The exit-2 message where nobody can be asked (-p without a terminal): what is left out, and how
 * to trust it.
 */
export function untrustedMessage(items: readonly TrustItem[]): string {
  return (
    "this workspace's project files define MCP servers, hooks, allow rules, agents or environment variables you have not trusted yet:\n" +
    `${describeItems(items)}\n` +
    `Nothing from them runs or applies until you trust them: run xagent here once on a terminal to review them, ` +
    `or pass ${TRUST_FLAG} (or set ${TRUST_ENV}=1) to trust them for this run.`
  );
}

/**
 * Before a run starts: a config with untrusted project items is asked about on the terminal
 * (yes: remembered in $XAGENT_HOME and used; no: the run goes on without them), or, with nobody
 * to ask, refused with a UsageError (exit 2) that says how to trust them.
 * @example const config = await settleTrust(resolveRunConfig(...), { terminal: isatty(0) && process.stderr.isTTY, input: process.stdin, output: process.stderr });
 */
export async function settleTrust(
  config: RunConfig,
  io: { terminal: boolean; input: NodeJS.ReadableStream; output: NodeJS.WritableStream },
): Promise<RunConfig> {
  const untrusted = config.untrusted;
  if (!untrusted) return config;
  if (!io.terminal) throw new UntrustedProjectError(untrustedMessage(untrusted.items));
  io.output.write(
    `xagent: this workspace's project files would start MCP servers, run hooks, allow tools, define agents or set environment variables:\n${describeItems(untrusted.items)}\n` +
      'Read them before you say yes: they run with your rights.\n',
  );
  const answer = await question(io, 'Trust them in this workspace (remembered until they change)? [y/N] ');
  const { untrusted: _, ...rest } = config;
  if (!/^\s*y(es)?\s*$/i.test(answer)) {
    io.output.write('xagent: going on without them; you will be asked again next time.\n');
    return rest;
  }
  try {
    rememberTrust(
      config.home,
      config.workspace,
      untrusted.items.map((item) => item.key),
    );
  } catch (error) {
    io.output.write(`xagent: could not remember the answer (${(error as Error).message}); trusted for this run only.\n`);
  }
  return { ...rest, ...untrusted.withThem };
}

/** An "always" answer saved an allow rule to the project's local settings: the person's own, so trusted. */
export function trustSavedRules(config: Pick<RunConfig, 'home' | 'workspace'>, rules: readonly PermissionRule[]): void {
  try {
    rememberTrust(
      config.home,
      config.workspace,
      rules.map((rule) => ruleItem(rule, config.workspace).key),
    );
  } catch {
    // not remembered: the next run asks about the rule once
  }
}

function question(io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }, text: string): Promise<string> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: true });
  return new Promise((resolve) => {
    let answered = false;
    rl.once('close', () => {
      if (!answered) resolve('');
    });
    rl.question(text, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}
