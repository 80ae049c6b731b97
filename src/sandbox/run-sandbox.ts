import { assertSandboxStarts } from './sandbox-check.js';
import { sweepPlaceholders } from './placeholders.js';
import { createSandbox, placeholderJournal, type Sandbox } from './sandbox.js';
import { resolveSandboxSettings, type SandboxLayer, type SandboxSettings } from './sandbox-settings.js';

/**
 * A run's sandbox from the flag and the settings files: undefined when it is off; when it is on,
 * bwrap is found and one sandboxed `true` has run, so a broken setup stops the run before it starts.
 * @example const { sandbox } = sandboxForRun({ flag: raw.sandbox, layers: settings.sandbox, workspace, xagentHome: home, env });
 * @throws SandboxUnavailableError (the CLI exits 2 with it): no bwrap, or bwrap cannot work here
 */
export function sandboxForRun(input: {
  flag: boolean | undefined;
  layers: readonly SandboxLayer[];
  workspace: string;
  xagentHome: string;
  env: NodeJS.ProcessEnv;
}): { settings: SandboxSettings; sandbox?: Sandbox } {
  // What a run killed with -9 left in a workspace goes first, sandbox or not: it is only clutter.
  sweepPlaceholders(placeholderJournal(input.xagentHome));
  const settings = resolveSandboxSettings(input.layers, input.flag);
  if (!settings.enabled) return { settings };
  const sandbox = createSandbox({ settings, workspace: input.workspace, xagentHome: input.xagentHome, env: input.env });
  assertSandboxStarts(sandbox);
  return { settings, sandbox };
}
