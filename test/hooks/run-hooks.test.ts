import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHookSettings, resolveHooks } from '../../src/hooks/config.js';
import { runHooks } from '../../src/hooks/run-hooks.js';
import type { HookRunReport } from '../../src/hooks/types.js';
import { groupAlive } from '../../src/system/process-group.js';
import { tempDir } from '../support/engine-harness.js';

/** Runs real `bash -c` hooks for one event and returns the merged outcome and the reports. */
async function run(
  hooks: Record<string, unknown>,
  input: Parameters<typeof runHooks>[0]['input'],
  signal = new AbortController().signal,
  whileRunning?: (cwd: string) => void,
) {
  const cwd = tempDir('xagent-hooks-');
  const reports: HookRunReport[] = [];
  whileRunning?.(cwd);
  const outcome = await runHooks({
    hooks: parseHookSettings(hooks, 'settings.json'),
    input,
    session: { sessionId: 's1', transcriptPath: '/x/transcript.jsonl', cwd },
    signal,
    report: (r) => reports.push(r),
  });
  return { outcome, reports, cwd };
}
const call = { id: 'toolu_1', name: 'bash', input: { command: 'ls' } };

/** Resolves once `file` exists (the test's own timeout bounds the wait). */
async function waitForFile(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
}
const pre = (...commands: Array<string | { command: string; timeout: number }>) => ({
  PreToolUse: [{ hooks: commands.map((c) => (typeof c === 'string' ? { type: 'command', command: c } : { type: 'command', ...c })) }],
});

describe('the hook runner', () => {
  it('gives the hook its input as JSON on stdin and runs it in the workspace', async () => {
    const { cwd, outcome } = await run(pre('cat > input.json; pwd > cwd.txt'), { event: 'PreToolUse', turn: 1, call });
    expect(outcome).toEqual({ decision: null });
    expect(JSON.parse(readFileSync(path.join(cwd, 'input.json'), 'utf8'))).toEqual({
      session_id: 's1',
      transcript_path: '/x/transcript.jsonl',
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_1',
    });
    expect(readFileSync(path.join(cwd, 'cwd.txt'), 'utf8').trim()).toBe(cwd);
  });

  it('exit 2 blocks with the stderr; the report names the command, exit code and outcome', async () => {
    const { outcome, reports } = await run(pre('echo "not here" >&2; exit 2'), { event: 'PreToolUse', turn: 1, call });
    expect(outcome).toEqual({ decision: 'block', decidedBy: 'hook PreToolUse: echo "not here" >&2; exit 2', reason: 'not here' });
    expect(reports).toEqual([
      expect.objectContaining({
        hook_event: 'PreToolUse',
        command: 'echo "not here" >&2; exit 2',
        exit_code: 2,
        outcome: 'denied',
        message: 'not here',
        tool_name: 'bash',
      }),
    ]);
  });

  it('reads a PreToolUse decision from JSON, and the older top-level decision too', async () => {
    const specific = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"check it"}}'`;
    expect((await run(pre(specific), { event: 'PreToolUse', turn: 1, call })).outcome).toMatchObject({
      decision: 'ask',
      reason: 'check it',
    });
    const legacy = `echo '{"decision":"approve","reason":"fine"}'`;
    expect((await run(pre(legacy), { event: 'PreToolUse', turn: 1, call })).outcome).toMatchObject({ decision: 'allow', reason: 'fine' });
  });

  it('treats bad JSON on stdout as plain text, which for UserPromptSubmit is context', async () => {
    const hooks = { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `echo '{"decision": "block"'` }] }] };
    const { outcome } = await run(hooks, { event: 'UserPromptSubmit', turn: 0, prompt: 'hi' });
    expect(outcome).toEqual({ decision: null, context: '{"decision": "block"' });
  });

  it('another exit code is an error: reported, and no say in the outcome', async () => {
    const { outcome, reports } = await run(pre('echo broken >&2; exit 1'), { event: 'PreToolUse', turn: 1, call });
    expect(outcome).toEqual({ decision: null });
    expect(reports[0]).toMatchObject({ exit_code: 1, outcome: 'error', message: 'broken' });
  });

  it('runs all hooks of an event at once; a block beats an allow, and both are reported', async () => {
    // Each hook waits for the other's flag: run one after the other, the first would give up (exit 1, an error).
    const waitFor = (mine: string, other: string) =>
      `touch ${mine}; for i in $(seq 100); do [ -e ${other} ] && break; sleep 0.05; done; [ -e ${other} ] || exit 1`;
    const allow = `${waitFor('a', 'b')}; echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`;
    const block = `${waitFor('b', 'a')}; echo no >&2; exit 2`;
    const { outcome, reports } = await run(pre(allow, block), { event: 'PreToolUse', turn: 1, call });
    expect(outcome).toMatchObject({ decision: 'block', reason: 'no' });
    expect(reports.map((r) => r.outcome).sort()).toEqual(['allowed', 'denied']);
  });

  it('kills a hook at its timeout, its whole process group, and reports a timeout', async () => {
    const { outcome, reports, cwd } = await run(pre({ command: 'echo $$ > hook.pid; (sleep 1000 & wait)', timeout: 2 }), {
      event: 'PreToolUse',
      turn: 1,
      call,
    });
    expect(outcome).toEqual({ decision: null });
    expect(reports[0]).toMatchObject({ outcome: 'timeout', exit_code: null });
    // The group: the hook's bash, its subshell and the sleep (a zombie nobody reaps does not count).
    expect(groupAlive(Number(readFileSync(path.join(cwd, 'hook.pid'), 'utf8')))).toBe(false);
  });

  it('stops a hook when the run is aborted', async () => {
    const controller = new AbortController();
    // Aborted once the hook has started (its pid is written), however slow the machine is.
    const { reports, cwd } = await run(
      pre('echo $$ > hook.pid.tmp; mv hook.pid.tmp hook.pid; sleep 1000'),
      { event: 'PreToolUse', turn: 1, call },
      controller.signal,
      (dir) => void waitForFile(path.join(dir, 'hook.pid')).then(() => controller.abort()),
    );
    expect(reports[0]).toMatchObject({ outcome: 'error', message: expect.stringContaining('interrupted') });
    expect(groupAlive(Number(readFileSync(path.join(cwd, 'hook.pid'), 'utf8')))).toBe(false);
  });

  it('caps what a hook can say', async () => {
    const { outcome } = await run(pre('head -c 200000 /dev/zero | tr "\\0" x >&2; exit 2'), { event: 'PreToolUse', turn: 1, call });
    expect(outcome.reason!.length).toBeLessThan(11_000);
  });

  it('runs the same command once, even when two settings files both configure it', async () => {
    const cwd = tempDir('xagent-hooks-');
    const config = { PreToolUse: [{ hooks: [{ type: 'command', command: 'echo run >> runs.txt' }] }] };
    const hooks = [...parseHookSettings(config, 'user settings.json'), ...parseHookSettings(config, 'project settings.json')];
    await runHooks({
      hooks,
      input: { event: 'PreToolUse', turn: 1, call },
      session: { sessionId: 's', transcriptPath: null, cwd },
      signal: new AbortController().signal,
      report: () => undefined,
    });
    expect(readFileSync(path.join(cwd, 'runs.txt'), 'utf8')).toBe('run\n');
  });

  it('runs only the hooks whose matcher takes the tool', async () => {
    const hooks = { PreToolUse: [{ matcher: 'edit_file', hooks: [{ type: 'command', command: 'exit 2' }] }] };
    const { outcome, reports } = await run(hooks, { event: 'PreToolUse', turn: 1, call });
    expect(outcome).toEqual({ decision: null });
    expect(reports).toEqual([]);
  });

  it('runs function hooks with the same input, and a thrown error or a hang has no say', async () => {
    const seen: unknown[] = [];
    const hooks = resolveHooks(
      {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'function',
                name: 'policy',
                callback: (input) => {
                  seen.push(input);
                  return { decision: 'deny', reason: 'no shell' };
                },
              },
            ],
          },
          {
            hooks: [
              {
                type: 'function',
                callback: () => {
                  throw new Error('bug in hook');
                },
              },
            ],
          },
          {
            hooks: [
              {
                type: 'function',
                timeout: 0.2,
                callback: (_input, { signal }) => new Promise((r) => signal.addEventListener('abort', () => r({}))),
              },
            ],
          },
        ],
      },
      'query()',
    );
    const reports: HookRunReport[] = [];
    const outcome = await runHooks({
      hooks,
      input: { event: 'PreToolUse', turn: 1, call },
      session: { sessionId: 's', transcriptPath: null, cwd: '/' },
      signal: new AbortController().signal,
      report: (r) => reports.push(r),
    });
    expect(outcome).toEqual({ decision: 'block', decidedBy: 'hook PreToolUse: function policy', reason: 'no shell' });
    expect(seen).toEqual([expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'bash', transcript_path: null })]);
    expect(reports.map((r) => [r.command, r.outcome])).toEqual([
      ['function policy', 'denied'],
      ['function', 'error'],
      ['function', 'timeout'],
    ]);
  });
});
