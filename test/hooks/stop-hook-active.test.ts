import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJson } from '../support/engine-harness.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/**
 * Issue 39: a Stop hook that keeps exiting 2 (a missing script, say) used to keep the task asking
 * the model until a limit. As in Claude Code, the second run gets `stop_hook_active: true`, and a
 * block then lets the task end. Every hook gets `prompt_id`; Stop hooks get `last_assistant_message`.
 */
const api = useFakeApi();

describe('Stop hooks as Claude Code runs them', () => {
  it('a Stop hook that always exits 2 lets the task end after one more answer; its second input has stop_hook_active: true', async () => {
    const inputs = path.join(api.workspace, 'stop-inputs.jsonl');
    mkdirSync(path.join(api.workspace, '.claude'), { recursive: true });
    writeJson(path.join(api.workspace, '.claude', 'settings.json'), {
      hooks: {
        Stop: [
          {
            hooks: [{ type: 'command', command: `cat >> ${inputs}; echo >> ${inputs}; echo "scripts/missing.sh: not found" >&2; exit 2` }],
          },
        ],
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: `cat >> ${inputs}; echo >> ${inputs}` }] }],
      },
    });
    const env = await api.start([{ text: 'Done.' }, { text: 'Still done.' }, { text: 'never asked for' }]);
    const run = await runCli(['-p', 'do the task', '--cwd', api.workspace, '--output-format', 'json'], { env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ reason: 'final_answer', result: 'Still done.', num_turns: 2 });
    expect(api.fake.requests).toHaveLength(2);

    const [prompt, first, second, ...more] = jsonLines(readFileSync(inputs, 'utf8'));
    expect(more).toEqual([]);
    expect(first).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' });
    expect(second).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'Still done.' });
    // One prompt, one id, in every hook of its task.
    expect(prompt).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(first!.prompt_id).toBe(prompt!.prompt_id);
    expect(second!.prompt_id).toBe(prompt!.prompt_id);
  });
});
