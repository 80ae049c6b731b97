import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessionHistory } from '../../src/inspector/replay.js';
import { groupAlive } from '../../src/system/process-group.js';
import { readJsonl, writeJson } from '../support/engine-harness.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/**
 * Hooks through the built CLI and the fake API: real `bash -c` hook processes, configured in the
 * workspace's .xagent/settings.json; what they decide is checked in what the fake received.
 */
const api = useFakeApi();

type Messages = Array<{ role: string; content: Array<Record<string, unknown>> }>;
const messagesOf = (request: number): Messages => (api.fake.requests[request]!.body as { messages: Messages }).messages;
const bashCall = (command: string): FakeResponse => ({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command } }] });

function withHooks(hooks: Record<string, unknown>): void {
  mkdirSync(path.join(api.workspace, '.xagent'), { recursive: true });
  writeJson(path.join(api.workspace, '.xagent', 'settings.json'), { hooks });
}
const command = (text: string, timeout?: number) => ({ type: 'command', command: text, ...(timeout ? { timeout } : {}) });

async function run(script: FakeResponse[], args: string[] = []) {
  const env = await api.start(script);
  const result = await runCli(['-p', 'do the task', '--cwd', api.workspace, '--output-format', 'json', ...args], { env });
  const json = jsonLines(result.stdout).at(-1) ?? {};
  return { ...result, json };
}

function traceOf(json: Record<string, unknown>): Array<Record<string, unknown>> {
  return readJsonl<Record<string, unknown>>(String(json.trace_path));
}

describe('hooks through the CLI', () => {
  it('a PreToolUse hook that exits 2 keeps bash from running, and the model gets its stderr as an is_error result', async () => {
    withHooks({ PreToolUse: [{ matcher: 'bash', hooks: [command('echo "no shell in this repo" >&2; exit 2')] }] });
    const r = await run([bashCall('touch made-by-bash.txt'), { text: 'Understood.' }], ['--allow', 'bash']);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(api.workspace, 'made-by-bash.txt'))).toBe(false);
    const result = messagesOf(1).at(-1)!.content[0]!;
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(String(result.content)).toContain('no shell in this repo');
    const trace = traceOf(r.json);
    expect(trace).toContainEqual(
      expect.objectContaining({ event: 'hook', hook_event: 'PreToolUse', exit_code: 2, outcome: 'denied', tool_name: 'bash' }),
    );
    expect(trace.find((l) => l.state === 'recover')).toMatchObject({
      decision: { behavior: 'deny', decidedBy: 'hook PreToolUse: echo "no shell in this repo" >&2; exit 2' },
    });
    // The inspector's replay of the session shows the hook run in its log, before the state it led to.
    const records = loadSessionHistory(String(r.json.trace_path)).records;
    const hook = records.findIndex((rec) => rec.kind === 'hook');
    expect(records[hook]).toMatchObject({ kind: 'hook', hook_event: 'PreToolUse', outcome: 'denied', exit_code: 2 });
    expect(records.findIndex((rec) => rec.kind === 'state' && rec.name === 'recover')).toBeGreaterThan(hook);
  });

  it('a hook whose matcher does not take the tool does not run', async () => {
    withHooks({ PreToolUse: [{ matcher: 'edit_file|write_file', hooks: [command('exit 2')] }] });
    const r = await run([bashCall('touch made.txt'), { text: 'ok' }], ['--allow', 'bash']);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(api.workspace, 'made.txt'))).toBe(true);
    expect(traceOf(r.json).filter((l) => l.event === 'hook')).toEqual([]);
  });

  it('a hook that hangs is killed at its timeout, process group and all, and the task goes on', async () => {
    withHooks({ PreToolUse: [{ matcher: 'bash', hooks: [command('echo $$ > hook.pid; sleep 1000', 1)] }] });
    const r = await run([bashCall('touch made.txt'), { text: 'ok' }], ['--allow', 'bash']);
    expect(r.code).toBe(0);
    const pid = Number(readFileSync(path.join(api.workspace, 'hook.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(1);
    expect(groupAlive(pid)).toBe(false);
    expect(existsSync(path.join(api.workspace, 'made.txt'))).toBe(true);
    expect(traceOf(r.json)).toContainEqual(expect.objectContaining({ event: 'hook', outcome: 'timeout', exit_code: null }));
  });

  it('a PostToolUse hook gets the result on stdin, and its exit 2 message reaches the model after the result', async () => {
    withHooks({
      PostToolUse: [{ matcher: '*', hooks: [command('cat > post-input.json; echo "remember to run the linter" >&2; exit 2')] }],
    });
    const r = await run([bashCall('echo hello-from-bash'), { text: 'ok' }], ['--allow', 'bash']);
    expect(r.code).toBe(0);
    const input = JSON.parse(readFileSync(path.join(api.workspace, 'post-input.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo hello-from-bash' },
      cwd: api.workspace,
      session_id: r.json.session_id,
    });
    expect((input.tool_response as { content: string }).content).toContain('hello-from-bash');
    expect((input.tool_response as { stdout: string }).stdout).toContain('hello-from-bash');
    expect(String(input.transcript_path)).toMatch(/transcript\.jsonl$/);
    const result = messagesOf(1).at(-1)!.content[0]!;
    expect(String(result.content)).toMatch(/hello-from-bash[\s\S]*remember to run the linter/);
    expect(result.is_error).toBeFalsy();
  });

  it('a UserPromptSubmit hook that exits 2 keeps the prompt from being sent and stops with permission_denied', async () => {
    withHooks({ UserPromptSubmit: [{ hooks: [command('echo "prompts about secrets are not allowed" >&2; exit 2')] }] });
    const r = await run([{ text: 'never asked' }]);
    expect(r.code).toBe(6);
    expect(api.fake.requests).toHaveLength(0);
    expect(r.json).toMatchObject({
      reason: 'permission_denied',
      decision: { decidedBy: expect.stringMatching(/^hook UserPromptSubmit: /) },
    });
    expect((r.json.decision as { message: string }).message).toContain('prompts about secrets are not allowed');
    const transcript = path.join(path.dirname(String(r.json.trace_path)), 'transcript.jsonl');
    expect(readFileSync(transcript, 'utf8')).not.toContain('do the task');
    const text = await runCli(['-p', 'do the task', '--cwd', api.workspace], { env: await api.start([]) });
    expect(text.code).toBe(6);
    expect(text.stderr).toMatch(
      /✗ The prompt was blocked by a UserPromptSubmit hook: prompts about secrets are not allowed \(hook UserPromptSubmit: echo/,
    );
    expect(api.fake.requests).toHaveLength(0);
  });

  it('a PreToolUse hook that answers allow in JSON skips the permission prompt', async () => {
    const allow = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'ok' },
    });
    withHooks({ PreToolUse: [{ matcher: 'bash', hooks: [command(`echo '${allow}'`)] }] });
    // Without the hook, bash asks; with no terminal to ask on, the task would stop with permission_denied.
    const r = await run([bashCall('touch allowed.txt'), { text: 'ok' }]);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(api.workspace, 'allowed.txt'))).toBe(true);
    expect(traceOf(r.json).find((l) => l.state === 'execute_tool.running')).toMatchObject({
      decision: { behavior: 'allow', decidedBy: expect.stringMatching(/^hook PreToolUse: /) },
    });
  });

  it('a Stop hook that exits 2 sends the model back to work once, with its message', async () => {
    const stop = `grep -q '"stop_hook_active":true' && exit 0; echo "tests are still failing" >&2; exit 2`;
    withHooks({ Stop: [{ hooks: [command(stop)] }] });
    const r = await run([{ text: 'Done, I think.' }, { text: 'Now really done.' }]);
    expect(r.code).toBe(0);
    expect(api.fake.requests).toHaveLength(2);
    expect(JSON.stringify(messagesOf(1).at(-1))).toContain('tests are still failing');
    expect(r.json).toMatchObject({ reason: 'final_answer', text: 'Now really done.', turns: 2 });
  });

  it("SessionStart's stdout reaches the first request", async () => {
    withHooks({ SessionStart: [{ hooks: [command('echo "the build command is make ci"')] }] });
    const r = await run([{ text: 'ok' }]);
    expect(r.code).toBe(0);
    expect(JSON.stringify(messagesOf(0)[0])).toContain('the build command is make ci');
  });

  it('a hook that exits 1 is shown to the user and does not block', async () => {
    withHooks({ PreToolUse: [{ hooks: [command('echo "hook script is broken" >&2; exit 1')] }] });
    const env = await api.start([bashCall('touch still-ran.txt'), { text: 'ok' }]);
    const r = await runCli(['-p', 'do it', '--cwd', api.workspace, '--allow', 'bash'], { env });
    expect(r.code).toBe(0);
    expect(existsSync(path.join(api.workspace, 'still-ran.txt'))).toBe(true);
    expect(r.stderr).toMatch(/hook PreToolUse .*: error \(exit 1\): hook script is broken/);
  });

  it('stream-json carries each hook run as a `hook` event', async () => {
    withHooks({ SessionStart: [{ hooks: [command('true')] }] });
    const env = await api.start([{ text: 'ok' }]);
    const r = await runCli(['-p', 'x', '--cwd', api.workspace, '--output-format', 'stream-json'], { env });
    expect(jsonLines(r.stdout)).toContainEqual({
      type: 'hook',
      hook_event: 'SessionStart',
      command: 'true',
      exit_code: 0,
      duration_ms: expect.any(Number),
      outcome: 'ok',
      turn: 0,
      seq: expect.any(Number),
      ts: expect.any(String),
      session_id: expect.any(String),
      agent: 'main',
    });
  });

  it.each([
    [{ PreToolUse: [{ matcher: '(', hooks: [command('true')] }] }, /matcher is not a valid regular expression/],
    [{ PreToolUse: [{ hooks: [{ type: 'command' }] }] }, /hooks\.PreToolUse\[0\]\.hooks\[0\]\.command must be a non-empty string/],
    [{ BeforeEverything: [] }, /unknown hook event "hooks\.BeforeEverything"/],
    [{ Stop: [{ hooks: [command('true', -1)] }] }, /timeout must be a number of seconds/],
  ])('bad hooks config exits 2 naming the file and the problem (%#)', async (hooks, problem) => {
    withHooks(hooks);
    const env = await api.start([]);
    const r = await runCli(['-p', 'x', '--cwd', api.workspace], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(path.join('.xagent', 'settings.json'));
    expect(r.stderr).toMatch(problem);
    expect(api.fake.requests).toHaveLength(0);
  });

  it('a hung hook is killed when the task runs out of time (--timeout), and the task stops with timeout', async () => {
    withHooks({ PreToolUse: [{ hooks: [command('echo $$ > hook.pid; sleep 1000')] }] });
    const r = await run([bashCall('touch never.txt')], ['--allow', 'bash', '--timeout', '2s']);
    expect(r.code).toBe(5);
    expect(groupAlive(Number(readFileSync(path.join(api.workspace, 'hook.pid'), 'utf8')))).toBe(false);
    expect(existsSync(path.join(api.workspace, 'never.txt'))).toBe(false);
  });
});
