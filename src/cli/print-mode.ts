import { isatty } from 'node:tty';
import { createTerminalPrompt } from '../terminal/prompt.js';
import { UsageError } from './exit-codes.js';
import { createApiModel } from '../run/model-factory.js';
import { holdInspector } from './inspect-command.js';
import { onOutputClosed } from './output-closed.js';
import { prepareRun } from '../run/prepare-run.js';
import { policyFor } from '../run/run-config.js';
import { settleTrust } from '../run/trust-gate.js';
import { mcpPermissionPrompt, promptToolProblem } from '../run/mcp-permission-prompt.js';
import type { RunFlags } from '../run/add-run-flags.js';
import { resolveRunConfig } from '../run/run-flags.js';
import { exitCodeOf, rendererFor } from './run-print.js';
import { installAbortSignals } from '../run/signals.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `xagent -p`: one task, rendered in the chosen output format; resolves with the exit code. */
export async function runPrint(args: string[], raw: RunFlags): Promise<number> {
  // isatty(0), not process.stdin.isTTY: that getter builds a stream for stdin, which a prompt given as an argument never reads.
  const stdinIsTerminal = isatty(0);
  // Untrusted project files: asked about on a terminal, else exit 2 saying how to trust them.
  const config = await settleTrust(resolveRunConfig(raw, args, process.env, createApiModel), {
    terminal: stdinIsTerminal && process.stderr.isTTY === true,
    input: process.stdin,
    output: process.stderr,
  });
  let prompt = config.prompt;
  if (!prompt && !stdinIsTerminal) prompt = (await readStdin()).trim();
  if (!prompt) throw new UsageError('no prompt: give it as an argument (xagent -p "task") or on stdin');
  const run = await prepareRun(config, { stderr: process.stderr });
  const promptToolWarning = config.permissionPromptTool && promptToolProblem(config.permissionPromptTool, config.mcpServers ?? []);
  if (promptToolWarning) process.stderr.write(`xagent: warning: ${promptToolWarning}\n`);
  // --permission-prompt-tool answers in place of a person; else a person can answer `ask` only where
  // both the keyboard and the screen are a terminal.
  const askPerson = config.permissionPromptTool
    ? mcpPermissionPrompt({
        tool: config.permissionPromptTool,
        tools: () => run.tools(),
        workspace: config.workspace,
        stopOnDenial: raw.stopOnDenial === true,
      })
    : stdinIsTerminal && process.stderr.isTTY
      ? createTerminalPrompt({ input: process.stdin, output: process.stderr, workspace: config.workspace })
      : undefined;
  const controller = new AbortController();
  const uninstallSignals = installAbortSignals({ onAbort: () => controller.abort(), stderr: process.stderr });
  const stopWatchingOutput = onOutputClosed(() => controller.abort());
  try {
    const result = await run.runTask({
      prompt,
      // As Claude Code's -p: a refused call goes back to the model and is listed in permission_denials.
      permissions: policyFor(config, askPerson, { denialsToModel: raw.stopOnDenial !== true }),
      signal: controller.signal,
      renderer: rendererFor(config, { stdout: process.stdout, stderr: process.stderr }),
    });
    await run.session.settled();
    run.session.release();
    uninstallSignals();
    stopWatchingOutput();
    if (run.inspector) await holdInspector(run.inspector, process.stderr);
    return exitCodeOf(result);
  } finally {
    uninstallSignals();
    stopWatchingOutput();
    await run.close();
  }
}
