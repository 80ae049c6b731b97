import type { Command } from 'commander';
import { checkSandbox, createSandbox, resolveSandboxSettings } from '../sandbox/index.js';
import { type CommandStreams, subcommandSetup } from './subcommand-setup.js';

/**
 * Adds `xagent sandbox check [--cwd dir] [--json]`: tries each promise of the sandbox for real and
 * says what works here. Exit 0 when everything does, 1 when a check fails, 2 when there is no
 * usable bwrap (with how to install it).
 * @example registerSandboxCommand(program, setExit, { stdout: process.stdout, stderr: process.stderr });
 */
export function registerSandboxCommand(
  program: Command,
  setExit: (code: number) => void,
  streams: CommandStreams,
  env: NodeJS.ProcessEnv = process.env,
): void {
  program
    .command('sandbox')
    .description('the OS sandbox (bubblewrap) that --sandbox runs commands in')
    .command('check')
    .description('try the sandbox on this machine and say what works')
    .option('--cwd <dir>', 'workspace to check with (default: current dir)')
    .option('--json', 'one JSON object on stdout')
    // With globals: the main command's own --cwd would otherwise take the value.
    .action(async (_options: unknown, command: Command) =>
      setExit(await runSandboxCheck(command.optsWithGlobals<{ cwd?: string; json?: boolean }>(), streams, env)),
    );
}

async function runSandboxCheck(
  options: { cwd?: string; json?: boolean },
  streams: CommandStreams,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const setup = subcommandSetup(options, streams.stderr, env, ({ workspace, home, settings }) => ({
    workspace,
    sandbox: createSandbox({ settings: resolveSandboxSettings(settings.sandbox, true), workspace, xagentHome: home, env }),
  }));
  if ('exitCode' in setup) return setup.exitCode;
  const { workspace, sandbox } = setup;
  const results = await checkSandbox(sandbox);
  const ok = results.every((result) => result.ok);
  if (options.json) {
    streams.stdout.write(`${JSON.stringify({ ok, workspace, network: sandbox.options.network, checks: results })}\n`);
  } else {
    streams.stdout.write(`Sandbox check (workspace ${workspace}):\n`);
    for (const { name, ok: passed, detail } of results) streams.stdout.write(`  ${passed ? '✓' : '✗'} ${name}: ${detail}\n`);
    streams.stdout.write(
      ok
        ? 'Everything works: xagent --sandbox is available here.\n'
        : 'Some checks failed: --sandbox would not keep all of its promises here.\n',
    );
  }
  if (results[1]?.ok === false) streams.stderr.write('xagent: bwrap cannot start a sandbox here; --sandbox will refuse to run.\n');
  return ok ? 0 : 1;
}
