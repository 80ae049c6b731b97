import { describe, expect, it } from 'vitest';
import { checkTask, taskSpec } from '../../src/batch/task-line.js';
import { toRunSpec } from '../../src/lib/options.js';
import { submit } from '../../src/lib/tasks.js';
import { checkTaskOptions, taskSpecPart } from '../../src/run/task-options.js';
import type { RunSpec } from '../../src/run/run-spec.js';

// One shape of a task's options behind query(), a batch's line and submit(): each checks and reads
// the same fields the same way.
describe('TaskOptions, one shape for query(), a batch task and submit()', () => {
  it('checks each field the same way, naming it after where it came from', () => {
    expect(() => checkTaskOptions({ maxTurns: 0 })).toThrow('maxTurns must be a whole number of at least 1 (got 0)');
    expect(() => toRunSpec('x', { maxToolCalls: 1.5 })).toThrow('maxToolCalls must be a whole number of at least 1 (got 1.5)');
    expect(() => checkTask({ prompt: 'x', timeoutMs: -1 }, 'line 4')).toThrow(
      'line 4: timeoutMs must be a whole number of at least 1 (got -1)',
    );
    expect(() => checkTask({ prompt: 'x', allow: 'bash' }, 'line 2')).toThrow('line 2: allow must be an array of rules');
    expect(() => checkTaskOptions({ permissionMode: 'yolo' })).toThrow('permissionMode "yolo" must be one of');
    expect(() => checkTaskOptions({ maxThinkingTokens: -5 })).toThrow('maxThinkingTokens must be a whole number, 0 for off');
  });

  it('accepts every field in each of the three, appendSystemPrompt and maxThinkingTokens included', () => {
    const all = {
      cwd: '.',
      model: 'm',
      maxTurns: 3,
      maxToolCalls: 4,
      timeoutMs: 5000,
      permissionMode: 'plan',
      allow: ['bash'],
      deny: ['write_file'],
      systemPrompt: 's',
      appendSystemPrompt: 'a',
      maxThinkingTokens: 2048,
    } as const;
    const spec = toRunSpec('x', all);
    expect(spec).toMatchObject({
      model: 'm',
      limits: { maxTurns: 3, maxToolCalls: 4, timeoutMs: 5000 },
      permissionMode: 'plan',
      allow: ['bash'],
      deny: ['write_file'],
      systemPrompt: 's',
      appendSystemPrompt: 'a',
      maxThinkingTokens: '2048',
    });
    expect(checkTask({ id: 1, prompt: 'x', ...all }, 'line 1')).toMatchObject(all);
  });

  it("lays a task over its base: given fields win, rules add, limits nobody gave stay the base's", () => {
    const base = {
      limits: { maxTurns: 9, timeoutMs: 60_000 },
      allow: ['read_file'],
      deny: ['bash(rm*)'],
      model: 'base',
      maxThinkingTokens: '1024',
    };
    const part = taskSpecPart({ maxTurns: 3, allow: ['bash(npm test*)'], deny: ['edit_file'] }, base);
    expect(part.limits).toEqual({ maxTurns: 3, timeoutMs: 60_000 });
    expect(part.allow).toEqual(['read_file', 'bash(npm test*)']);
    expect(part.deny).toEqual(['bash(rm*)', 'edit_file']);
    expect(part.model).toBe('base');
    expect(part.maxThinkingTokens).toBe('1024');
    const batch = { ...base, prompt: 'batch', format: 'json', inspectPort: null, session: { continue: false }, cwd: '/w' } as RunSpec;
    expect(taskSpec(batch, { prompt: 'one', cwd: 'sub', maxThinkingTokens: 0 })).toMatchObject({
      prompt: 'one',
      cwd: '/w/sub',
      maxThinkingTokens: '0',
      limits: { maxTurns: 9 },
    });
  });

  it('submit() refuses a bad option before it reaches the server', async () => {
    // Nothing listens on port 9: a request would fail with a RestateError, not this UsageError.
    await expect(submit('x', { maxTurns: 0, restateUrl: 'http://127.0.0.1:9' })).rejects.toThrow(
      'maxTurns must be a whole number of at least 1',
    );
  });
});
