import type { Command } from 'commander';
import { addRunFlags } from '../run/add-run-flags.js';
import { exitCodeFor } from './exit-codes.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];
const io = () => ({ stdout: process.stdout, stderr: process.stderr, env: process.env, exitCodeFor });
/** The actions and the Restate code load only when one of these commands runs: -p never loads them. */
const actions = () => import('../restate/commands.js');

/**
 * Durable tasks on a Restate server (src/restate/): `serve --restate` (a worker), `submit`,
 * `tasks`, `wait`, `approve`, `deny`.
 */
export function registerRestateCommands(program: Command, setExit: (code: number) => void): void {
  const withServer = (command: Command) =>
    command.option('--restate-url <url>', "the Restate server's ingress (default: $RESTATE_INGRESS_URL, else http://127.0.0.1:8080)");
  program
    .command('serve')
    .description('run xagent tasks for a Restate server: a worker, registered with its admin API')
    .option('--restate', 'serve tasks through Restate (the one backend so far)')
    .option('--port <n>', 'the port the worker listens on (default 9080; 0 picks a free one)')
    .option('--host <address>', 'the interface to listen on (default 127.0.0.1)')
    .option('--advertise <url>', 'the address the server reaches this worker at (default http://<host>:<port>)')
    .option('--restate-admin <url>', "the server's admin API (default: $RESTATE_ADMIN_URL, else http://127.0.0.1:9070)")
    .option(
      '--identity-key <publickeyv1_...>',
      "the server's request-identity public key, repeatable: requests it did not sign are refused",
      collect,
    )
    .option(
      '--accept-from-spec <what>',
      'what a task spec may turn on here, comma-separated: trust, bypassPermissions, rules (default: none)',
      collect,
    )
    .action(async (raw: Record<string, never>) => setExit(await (await actions()).serve(raw, io())));
  addRunFlags(
    program
      .command('submit')
      .description('start a task on the Restate workers; prints its id (wait for it with xagent wait <id>)')
      .argument('[prompt...]', 'the task: xagent submit -p "task"')
      .option('--restate-url <url>', "the Restate server's ingress (default: $RESTATE_INGRESS_URL, else http://127.0.0.1:8080)")
      .option('--approval-token <token>', "only answers given with this token approve or deny the task's calls (env XAGENT_APPROVAL_TOKEN)")
      .option('--resume <session>', "continue this session (on the worker's disk); the task works in a copy named by its id"),
    'submit',
  ).action(async (words: string[], _local: unknown, command: Command) =>
    // The root command knows -p and most run flags too and takes them wherever they stand: merge both.
    setExit(await (await actions()).submit(words, command.optsWithGlobals(), io())),
  );
  withServer(
    program
      .command('tasks')
      .description('list the tasks on the Restate server with their chart state, or one task with the calls it waits on')
      .argument('[id]', 'one task')
      .option('--json', 'JSON on stdout')
      .option('--restate-admin <url>', "the server's admin API, for the list (default: $RESTATE_ADMIN_URL, else http://127.0.0.1:9070)"),
  ).action(async (id: string | undefined, raw: Record<string, never>) => setExit(await (await actions()).tasks(id, raw, io())));
  withServer(
    program
      .command('wait')
      .description('wait for a task to end and print its result as -p --output-format json does')
      .argument('<id>', 'the task'),
  ).action(async (id: string, raw: Record<string, never>) => setExit(await (await actions()).wait(id, raw, io())));
  withServer(
    program
      .command('approve')
      .description('allow the tool call a task waits on (xagent tasks <id> lists them)')
      .argument('<id>', 'the task')
      .argument('<tool_use_id>', 'the call')
      .option('--as <name>', 'who answers, named in the trace (default: user@host)')
      .option('--token <token>', 'the approval token given at submit (env XAGENT_APPROVAL_TOKEN)'),
  ).action(async (id: string, call: string, raw: Record<string, never>) =>
    setExit(await (await actions()).answer(id, call, { kind: 'yes' }, raw, io())),
  );
  withServer(
    program
      .command('deny')
      .description('refuse the tool call a task waits on: the task stops, or with --message the model is told and goes on')
      .argument('<id>', 'the task')
      .argument('<tool_use_id>', 'the call')
      .option('--message <text>', 'tell the model what to do instead; the task goes on')
      .option('--as <name>', 'who answers, named in the trace (default: user@host)')
      .option('--token <token>', 'the approval token given at submit (env XAGENT_APPROVAL_TOKEN)'),
  ).action(async (id: string, call: string, raw: { message?: string; restateUrl?: string; as?: string; token?: string }) =>
    setExit(await (await actions()).answer(id, call, raw.message ? { kind: 'feedback', text: raw.message } : { kind: 'no' }, raw, io())),
  );
}
