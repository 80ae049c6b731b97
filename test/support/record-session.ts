import { startFakeAnthropic, type FakeResponse } from './fake-anthropic.js';
import { runCli } from './run-cli.js';

/**
 * Records a session in `workspace` the way a person would have: each prompt a `-p` task (the
 * first new, the others `-c`) against a fake API answering from its script, edits allowed.
 * @example const id = await recordSession({ workspace, home }, [{ prompt: 'hi', script: [{ text: 'Hello.' }] }]);
 */
export async function recordSession(
  where: { workspace: string; home: string },
  tasks: ReadonlyArray<{ prompt: string; script: FakeResponse[] }>,
): Promise<string> {
  const fake = await startFakeAnthropic(tasks.flatMap((task) => task.script));
  const env = { XAGENT_HOME: where.home, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url };
  let id = '';
  try {
    for (const [i, task] of tasks.entries()) {
      const run = await runCli(
        ['-p', ...(i > 0 ? ['-c'] : []), '--permission-mode', 'acceptEdits', '--output-format', 'json', task.prompt],
        { env, cwd: where.workspace },
      );
      if (run.code !== 0) throw new Error(`recording "${task.prompt}" exited ${run.code}: ${run.stderr}`);
      id = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    }
    if (fake.rejected.length > 0) throw new Error(`the fake API rejected: ${JSON.stringify(fake.rejected)}`);
  } finally {
    await fake.close();
  }
  return id;
}
