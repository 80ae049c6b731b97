import { describe, expect, it } from 'vitest';
import type { Microstep } from '../../src/engine/step-adapter.js';
import type { HooksConfig } from '../../src/hooks/index.js';
import { createScriptedClient } from '../../src/model/scripted.js';
import { policy, runTask } from '../support/engine-harness.js';

/** Function hooks given to query(), as a program that uses xagent as a library passes them. */
const echoCall = { content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'echo', input: { text: 'hi' } }] };
const asks = policy(() => ({ behavior: 'ask', decidedBy: 'test: ask' }));
const deniesByRule = policy(() => ({ behavior: 'deny', decidedBy: 'rule: deny echo' }));

describe('function hooks through query()', () => {
  it('a PreToolUse deny keeps the tool from running; the model gets the reason as an is_error result', async () => {
    const hooks: HooksConfig = {
      PreToolUse: [{ matcher: 'echo', hooks: [{ type: 'function', callback: () => ({ decision: 'deny', reason: 'echo is off today' }) }] }],
    };
    const run = await runTask([echoCall, { text: 'ok' }], { hooks });
    expect(run.result.reason).toBe('final_answer');
    expect(run.audit).toEqual([]);
    expect(run.transcript[2]!.content[0]).toMatchObject({
      type: 'tool_result',
      is_error: true,
      content: expect.stringContaining('echo is off today'),
    });
    expect(run.trace.find((l) => l.state === 'recover')?.decision).toMatchObject({
      behavior: 'deny',
      decidedBy: 'hook PreToolUse: function',
    });
    expect(run.events).toContainEqual(
      expect.objectContaining({ type: 'hook', hook_event: 'PreToolUse', command: 'function', outcome: 'denied' }),
    );
  });

  it('a PreToolUse allow skips the prompt, but a deny rule still stands', async () => {
    const hooks: HooksConfig = { PreToolUse: [{ hooks: [{ type: 'function', callback: () => ({ decision: 'allow' }) }] }] };
    const allowed = await runTask([echoCall, { text: 'ok' }], { hooks, permissions: asks });
    expect(allowed.audit).toHaveLength(1);
    expect(allowed.trace.find((l) => l.state === 'execute_tool.running')?.decision?.decidedBy).toBe('hook PreToolUse: function');
    const refused = await runTask([echoCall, { text: 'ok' }], { hooks, permissions: deniesByRule });
    expect(refused.result).toMatchObject({ reason: 'permission_denied', decision: { decidedBy: 'rule: deny echo' } });
    expect(refused.audit).toEqual([]);
  });

  it('a PreToolUse ask sends an allowed call to the person', async () => {
    const asked: string[] = [];
    const permissions = policy(
      () => ({ behavior: 'allow', decidedBy: 'rule: allow echo' }),
      async (call) => {
        asked.push(call.name);
        return { behavior: 'allow', decidedBy: 'user: yes' };
      },
    );
    const hooks: HooksConfig = {
      PreToolUse: [{ hooks: [{ type: 'function', callback: () => ({ decision: 'ask', reason: 'look first' }) }] }],
    };
    const run = await runTask([echoCall, { text: 'ok' }], { hooks, permissions });
    expect(asked).toEqual(['echo']);
    expect(run.audit).toHaveLength(1);
  });

  it('PostToolUse sees the result, and its additional context follows the result', async () => {
    const seen: unknown[] = [];
    const hooks: HooksConfig = {
      PostToolUse: [
        {
          hooks: [
            {
              type: 'function',
              callback: (input) => {
                seen.push(input.tool_response);
                return { additionalContext: 'note: echo is cheap' };
              },
            },
          ],
        },
      ],
    };
    const run = await runTask([echoCall, { text: 'ok' }], { hooks });
    expect(seen).toEqual([{ content: 'echo: hi', is_error: false }]);
    expect(run.transcript[2]!.content[0]).toMatchObject({ content: 'echo: hi\n\nnote: echo is cheap' });
  });

  it('a UserPromptSubmit block stops before any model request, with the hook as what decided', async () => {
    const model = createScriptedClient({ responses: [{ text: 'never' }] });
    const hooks: HooksConfig = {
      UserPromptSubmit: [
        {
          hooks: [
            {
              type: 'function',
              name: 'guard',
              callback: (input) => ({ decision: input.prompt?.includes('secret') ? 'block' : undefined, reason: 'no secrets' }),
            },
          ],
        },
      ],
    };
    const run = await runTask([], { hooks, model, prompt: 'tell me the secret' });
    expect(model.requests).toBe(0);
    expect(run.transcript).toEqual([]);
    expect(run.result).toMatchObject({
      reason: 'permission_denied',
      decision: { decidedBy: 'hook UserPromptSubmit: function guard' },
      error: { code: 'PERMISSION_DENIED' },
    });
    expect(run.trace.at(-1)).toMatchObject({ state: 'done', decision: { decidedBy: 'hook UserPromptSubmit: function guard' } });
  });

  it('a Stop block sends the model back once; the second time the hook sees stop_hook_active', async () => {
    const active: Array<boolean | undefined> = [];
    const hooks: HooksConfig = {
      Stop: [
        {
          hooks: [
            {
              type: 'function',
              callback: (input) => {
                active.push(input.stop_hook_active);
                return input.stop_hook_active ? {} : { decision: 'block', reason: 'run the tests' };
              },
            },
          ],
        },
      ],
    };
    const run = await runTask([{ text: 'done?' }, { text: 'done.' }], { hooks });
    expect(active).toEqual([false, true]);
    expect(run.result).toMatchObject({ reason: 'final_answer', text: 'done.', turns: 2 });
    expect(JSON.stringify(run.transcript[2])).toContain('run the tests');
  });

  it('a Stop block cannot get past maxTurns', async () => {
    const hooks: HooksConfig = { Stop: [{ hooks: [{ type: 'function', callback: () => ({ decision: 'block', reason: 'never done' }) }] }] };
    // One round allowed: the block's way back to the model meets the limit (a second block would end the task anyway).
    const run = await runTask([{ text: 'a' }, { text: 'b' }], { hooks, maxTurns: 1 });
    expect(run.result).toMatchObject({ reason: 'max_turns', turns: 1 });
  });

  it('without hooks no hook actor starts and no hook branch is taken', async () => {
    const taken: string[] = [];
    const onMicrostep = (m: Microstep) => taken.push(...m.transitions().map((t) => t.id));
    const run = await runTask([echoCall, { text: 'ok' }], { onMicrostep });
    expect(run.events.filter((e) => e.type === 'hook')).toEqual([]);
    expect(
      taken.filter(
        (id) => /always:[0-9]/.test(id) && /^(build_context:always:[12]|ask_permission:always:1|append_tool_result:always:1)$/.test(id),
      ),
    ).toEqual([]);
    expect(taken.filter((id) => id.includes('Hooks'))).toEqual([]);
  });
});
