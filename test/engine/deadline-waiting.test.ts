import { describe, expect, it } from 'vitest';
import { TaskClock } from '../../src/engine/task-clock.js';
import { policy, runTask } from '../support/engine-harness.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks about every call; the person answers yes after `ms`. */
const slowPerson = (ms: number) =>
  policy(
    () => ({ behavior: 'ask', decidedBy: 'test: ask everything' }),
    async () => {
      await sleep(ms);
      return { behavior: 'allow', decidedBy: 'test: the person said yes' };
    },
  );

const echoThenAnswer = [{ content: [{ type: 'tool_use', name: 'echo', input: { text: 'hi' } }] }, { text: 'done' }];

describe('the deadline and the person', () => {
  it('a dialog open longer than the timeout does not stop the task', async () => {
    const run = await runTask(echoThenAnswer, { timeoutMs: 150, permissions: slowPerson(600) });
    expect(run.states).toContain('ask_permission.asking_user');
    expect(run.result.reason).toBe('final_answer');
  });

  it('the time after the answer counts again: a slow tool after the dialog still times out', async () => {
    const run = await runTask([{ content: [{ type: 'tool_use', name: 'slow', input: { ms: 5_000 } }] }, { text: 'never' }], {
      timeoutMs: 200,
      permissions: slowPerson(400),
    });
    expect(run.result.reason).toBe('timeout');
  });

  it('without a dialog, a tool slower than the timeout times out (the control)', async () => {
    const run = await runTask([{ content: [{ type: 'tool_use', name: 'slow', input: { ms: 5_000 } }] }, { text: 'never' }], {
      timeoutMs: 150,
    });
    expect(run.result.reason).toBe('timeout');
  });
});

describe('TaskClock', () => {
  it('stands still while paused and goes on from where it stopped', () => {
    let wall = 1_000;
    const clock = new TaskClock({ now: () => wall });
    wall = 1_100;
    clock.pause();
    wall = 9_000;
    expect(clock.now()).toBe(1_100);
    clock.resume();
    wall = 9_050;
    expect(clock.now()).toBe(1_150);
  });
});
