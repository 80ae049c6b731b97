import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { tempDir } from '../support/engine-harness.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/**
 * One pipeline for every agent (issue 36): a subagent's tool calls pass the same hooks, rules and
 * limits as the main agent's. Through the built CLI against the fake API, which answers by reading
 * each request: the main agent delegates once to `cleaner`, whose calls come from `childCalls`.
 */

type Body = { system?: unknown; messages: Array<{ role: string; content: unknown }> };
type Block = { type: string; text?: string; content?: unknown; tool_use_id?: string; is_error?: boolean };
type Call = { name: string; input: Record<string, unknown> };

const CLEANER = 'You are cleaner. Tidy the workspace as you are told.';
const SECRET = 'sk-live-very-secret-token-1234';
const blocks = (message: { content: unknown } | undefined): Block[] =>
  Array.isArray(message?.content) ? (message.content as Block[]) : [{ type: 'text', text: String(message?.content ?? '') }];

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  expect(fake?.rejected ?? []).toEqual([]);
  await fake?.close();
  fake = undefined;
});

function setup(settings: Record<string, unknown> = {}) {
  const home = tempDir('xagent-home-');
  const workspace = tempDir('xagent-ws-');
  mkdirSync(path.join(workspace, 'victim'));
  writeFileSync(path.join(workspace, 'victim', 'keep.txt'), 'precious');
  writeFileSync(path.join(workspace, '.env'), `API_TOKEN=${SECRET}\n`);
  mkdirSync(path.join(workspace, '.claude', 'agents'), { recursive: true });
  writeFileSync(
    path.join(workspace, '.claude', 'agents', 'cleaner.md'),
    `---\nname: cleaner\ndescription: Tidies the workspace\n---\n${CLEANER}\n`,
  );
  writeFileSync(path.join(home, 'settings.json'), JSON.stringify(settings));
  return { home, workspace };
}

/**
 * The main agent delegates once (a task call, or `mainCall` instead) and then answers with what
 * came back; the child makes `childCalls` one per round (several at once when an entry is an array), then answers.
 */
function responder(childCalls: Array<Call | Call[]>, mainCall?: Call) {
  let ids = 0;
  const use = (call: Call) => ({ type: 'tool_use' as const, id: `toolu_${++ids}`, name: call.name, input: call.input });
  return (body: Record<string, unknown>): FakeResponse => {
    const { system, messages } = body as Body;
    if (JSON.stringify(system ?? '').includes('You are cleaner.')) {
      const round = messages.filter((m) => m.role === 'assistant').length;
      const next = childCalls[round];
      if (!next) return { text: `cleaner done after ${round} rounds` };
      return { content: (Array.isArray(next) ? next : [next]).map(use) };
    }
    const results = blocks(messages.at(-1)).filter((b) => b.type === 'tool_result');
    if (results.length === 0) {
      const call = mainCall ?? {
        name: 'task',
        input: { description: 'Tidy up', prompt: 'Remove the victim folder and check .env', subagent_type: 'cleaner' },
      };
      return { content: [use(call)] };
    }
    return { text: `main saw: ${results.map((b) => (b.is_error ? 'ERROR ' : '') + JSON.stringify(b.content)).join(' / ')}` };
  };
}

async function run(home: string, workspace: string, respond: (body: Record<string, unknown>) => FakeResponse, args: string[]) {
  fake = await startFakeAnthropic([], { respond });
  const env = { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: home };
  const result = await runCli(['-p', 'tidy up', '--cwd', workspace, '--output-format', 'json', ...args], { env });
  return { ...result, json: jsonLines(result.stdout).at(-1) ?? {} };
}

const lines = (file: string): Array<Record<string, unknown>> =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

/** A guard hook as people write them: blocks `rm -rf` and anything that touches `.env`; logs what it saw. */
function guardHook(log: string) {
  const script = `input=$(cat); printf '%s\\n' "$input" >> ${JSON.stringify(log)}; case "$input" in *"rm -rf"*|*".env"*) echo "guard: not allowed" >&2; exit 2;; esac; exit 0`;
  return { type: 'command', command: script };
}
const auditHook = (log: string) => ({ type: 'command', command: `cat >> ${JSON.stringify(log)}; echo >> ${JSON.stringify(log)}` });

describe('one pipeline for every agent', () => {
  it("a guard hook in $XAGENT_HOME/settings.json blocks a subagent's rm -rf and its read of .env, even in bypassPermissions", async () => {
    const { home, workspace } = setup();
    const guardLog = path.join(home, 'guard.jsonl');
    const auditLog = path.join(home, 'audit.jsonl');
    writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Bash|Read|read_file|bash', hooks: [guardHook(guardLog)] }],
          PostToolUse: [{ matcher: '', hooks: [auditHook(auditLog)] }],
        },
      }),
    );
    const respond = responder([
      { name: 'bash', input: { command: 'rm -rf victim' } },
      { name: 'read_file', input: { path: '.env' } },
      { name: 'list_dir', input: { path: '.' } },
    ]);
    const r = await run(home, workspace, respond, ['--permission-mode', 'bypassPermissions', '--allow', 'bash']);
    expect(r.code, r.stderr).toBe(0);
    // The folder stays, and the hook ran for both of the child's calls, told which agent made them.
    expect(readFileSync(path.join(workspace, 'victim', 'keep.txt'), 'utf8')).toBe('precious');
    const guarded = lines(guardLog);
    expect(guarded.map((l) => l.tool_name)).toEqual(expect.arrayContaining(['Bash', 'Read']));
    for (const seen of guarded.filter((l) => l.tool_name !== 'Task'))
      expect(seen).toMatchObject({ hook_event_name: 'PreToolUse', agent_id: 'main/task-1', agent_type: 'cleaner' });
    // The secret never reached the model, in any request of any agent.
    expect(fake!.requests.length).toBeGreaterThanOrEqual(5);
    for (const request of fake!.requests) expect(JSON.stringify(request.body)).not.toContain(SECRET);
    // The child was told why: each blocked call came back as an is_error result with the guard's words.
    const childResults = fake!.requests
      .filter((q) => JSON.stringify((q.body as Body).system ?? '').includes('You are cleaner.'))
      .flatMap((q) => (q.body as Body).messages.flatMap((m) => blocks(m)))
      .filter((b) => b.type === 'tool_result');
    expect(childResults.filter((b) => b.is_error && String(b.content).includes('guard: not allowed')).length).toBeGreaterThanOrEqual(2);
    // PostToolUse with an empty matcher sees the child's call, with its agent, and the main agent's task call, without one.
    const audited = lines(auditLog);
    expect(audited).toContainEqual(
      expect.objectContaining({ hook_event_name: 'PostToolUse', tool_name: 'LS', agent_id: 'main/task-1', agent_type: 'cleaner' }),
    );
    const taskAudit = audited.find((l) => l.tool_name === 'Task');
    expect(taskAudit).toBeDefined();
    expect(taskAudit).not.toHaveProperty('agent_id');
  });

  it('a SubagentStop hook runs when the child ends, told its agent', async () => {
    const { home, workspace } = setup();
    const log = path.join(home, 'subagent-stop.jsonl');
    writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ hooks: { SubagentStop: [{ hooks: [auditHook(log)] }] } }));
    const r = await run(home, workspace, responder([{ name: 'list_dir', input: { path: '.' } }]), []);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(log)).toEqual([
      expect.objectContaining({ hook_event_name: 'SubagentStop', agent_id: 'main/task-1', agent_type: 'cleaner', stop_hook_active: false }),
    ]);
  });

  it('--max-tool-calls 4 on a task whose subagent asks for 10 calls: at most 4 tool calls run in all', async () => {
    const { home, workspace } = setup();
    const ten = Array.from({ length: 10 }, (_, i) => ({ name: 'bash', input: { command: `echo ran-${i} >> ran.txt` } }));
    const r = await run(home, workspace, responder(ten), ['--max-tool-calls', '4', '--allow', 'bash']);
    // The task call is one of the four; the child runs three commands and stops on the task's limit.
    const ran = existsSync(path.join(workspace, 'ran.txt')) ? readFileSync(path.join(workspace, 'ran.txt'), 'utf8').trim().split('\n') : [];
    expect(ran).toEqual(['ran-0', 'ran-1', 'ran-2']);
    expect(r.json.tool_calls).toBe(4);
    // The main agent is told its subagent stopped on the limit; it may answer, and it has no tool call left.
    expect(String(r.json.result)).toMatch(/^main saw: ERROR .*stopped with max_tool_calls/);
  });

  it('--max-tool-calls 4 holds when the child asks for its calls all at once, in batches', async () => {
    const { home, workspace } = setup();
    const reads = Array.from({ length: 10 }, () => ({ name: 'list_dir', input: { path: '.' } }));
    const r = await run(home, workspace, responder([reads]), ['--max-tool-calls', '4']);
    expect(String(r.json.result)).toMatch(/stopped with max_tool_calls/);
    const audit = lines(path.join(path.dirname(String(r.json.trace_path)), 'audit.jsonl'));
    expect(audit).toHaveLength(4);
  });

  it("--max-turns counts the child's rounds toward the task's", async () => {
    const { home, workspace } = setup();
    const many = Array.from({ length: 10 }, () => ({ name: 'list_dir', input: { path: '.' } }));
    const r = await run(home, workspace, responder(many), ['--max-turns', '4']);
    // The main agent's first round, then three of the child's: the fifth is over the task's limit.
    expect(fake!.requests).toHaveLength(4);
    expect(r.json.reason).toBe('max_turns');
    expect(r.code).toBe(3);
  });

  for (const name of ['task', 'Task', 'Agent'])
    it(`--deny ${name} stops delegation with an is_error result`, async () => {
      const { home, workspace } = setup();
      const r = await run(home, workspace, responder([{ name: 'bash', input: { command: 'touch child-ran' } }]), ['--deny', name]);
      expect(r.stderr).not.toMatch(/bad rule|no such tool/);
      expect(existsSync(path.join(workspace, 'child-ran'))).toBe(false);
      // No request from the child: only the main agent's.
      for (const request of fake!.requests) expect(JSON.stringify((request.body as Body).system ?? '')).not.toContain('You are cleaner.');
      // The task call is answered with an is_error result that names the rule (sent to the model, or closing the transcript on a stop).
      const transcript = loadTranscript(path.dirname(String(r.json.trace_path))).messages;
      const answer = transcript.flatMap((m) => blocks(m)).find((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_1');
      expect(answer).toMatchObject({ is_error: true });
      expect(JSON.stringify(answer)).toContain(`deny rule \\"${name}\\"`);
      // -p tells the model and goes on, listing the refusal as Claude Code does.
      expect(r.json.permission_denials).toEqual([expect.objectContaining({ tool_use_id: 'toolu_1' })]);
    });

  it('--allow task is accepted, and a hook with matcher Agent fires on the task call', async () => {
    const { home, workspace } = setup();
    const log = path.join(home, 'agent-hook.jsonl');
    writeFileSync(
      path.join(home, 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Agent', hooks: [auditHook(log)] }] } }),
    );
    const r = await run(home, workspace, responder([]), ['--allow', 'task']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(log)).toEqual([expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Task' })]);
  });
});
