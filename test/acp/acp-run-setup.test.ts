import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { processesWith } from '../mcp/support.js';
import { writeTinyServer } from '../mcp/tiny-server.js';
import { initialize, invalidAgentLines, newSession, promptText, startAcp, until, withEditor } from './acp-harness.js';

const api = useFakeApi();
const TEST_TIMEOUT = 60_000;

describe('xagent acp shares the run setup of the CLI', () => {
  it(
    "adds the editor's MCP servers to the run: their tools reach the model, and the servers stop with the agent",
    async () => {
      const script = writeTinyServer(api.workspace, { marker: api.workspace });
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_mcp', name: 'mcp__tiny__hello', input: {} }] },
        { text: 'The server said hello back.' },
      ]);
      const acp = startAcp(['--permission-mode', 'bypassPermissions'], env);
      const { log, code } = await withEditor(acp, {}, async (context) => {
        await initialize(context);
        const { sessionId } = await context.request('session/new', {
          cwd: api.workspace,
          mcpServers: [{ name: 'tiny', command: process.execPath, args: [script], env: [] }],
        });
        return promptText(context, sessionId, 'say hello to tiny');
      });
      expect(code).toBe(0);
      const tools = (api.fake.requests[0]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(tools).toContain('mcp__tiny__hello');
      const call = log.updates.map((u) => u.update).find((u) => u.sessionUpdate === 'tool_call');
      expect(call).toMatchObject({ toolCallId: 'toolu_mcp', kind: 'other', title: 'tiny: hello' });
      const done = log.updates.map((u) => u.update).find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
      expect(JSON.stringify((done as { content?: ToolCallContent[] } | undefined)?.content)).toContain('hello back');
      // The server and its grandchild belonged to the run, which ended with the agent.
      await until(() => processesWith(api.workspace).length === 0, 'the MCP server to stop', 10_000);
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'serves the inspector beside the protocol: its URL on stderr, stdout untouched',
    async () => {
      const env = await api.start([{ text: 'Looked at.' }]);
      const acp = startAcp(['--inspect', '0'], env);
      const { code } = await withEditor(acp, {}, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        await until(() => /Inspector: http:\/\/127\.0\.0\.1:\d+/.test(acp.stderr()), 'the inspector URL');
        const url = /Inspector: (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(acp.stderr())?.[1] ?? '';
        const page = await fetch(url);
        expect(page.status).toBe(200);
        return promptText(context, sessionId, 'hello');
      });
      expect(code).toBe(0);
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "leaves an untrusted project's allow rules out and says so in the first answer",
    async () => {
      mkdirSync(path.join(api.workspace, '.xagent'));
      writeFileSync(path.join(api.workspace, '.xagent/settings.json'), JSON.stringify({ permissions: { allow: ['bash(touch *)'] } }));
      const env = await api.start([
        // touch, not echo: echo is read-only and runs without any rule.
        { content: [{ type: 'tool_use', id: 'toolu_echo', name: 'bash', input: { command: 'touch hi' } }] },
        { text: 'done' },
      ]);
      const acp = startAcp([], { ...env, XAGENT_TRUST: undefined });
      const { log, code } = await withEditor(acp, {}, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'echo');
      });
      expect(code).toBe(0);
      const first = log.updates[0]?.update;
      expect(first).toMatchObject({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: expect.stringContaining('trust') },
      });
      // The rule was left out, so the editor was asked.
      expect(log.permissions).toHaveLength(1);
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "keeps the CLI's limits: --max-turns used up answers max_turn_requests, and says which flag to raise",
    async () => {
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_dir', input: {} }] },
        { content: [{ type: 'tool_use', id: 'toolu_2', name: 'list_dir', input: {} }] },
      ]);
      const acp = startAcp(['--max-turns', '1'], env);
      const { value, log, code } = await withEditor(acp, {}, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'look around');
      });
      expect(code).toBe(0);
      expect(value.stopReason).toBe('max_turn_requests');
      expect(JSON.stringify(log.updates.at(-1)?.update)).toContain('--max-turns');
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'session/cancel while the editor is asking: the question is withdrawn, the prompt answers cancelled, nothing runs',
    async () => {
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_rm', name: 'bash', input: { command: 'touch should-not-exist' } }] },
        { text: 'after' },
      ]);
      const acp = startAcp([], env);
      let asked = false;
      const { value, code } = await withEditor(
        acp,
        {
          // An editor that never answers on its own: only the cancel ends the question.
          permission: () => {
            asked = true;
            return new Promise(() => undefined);
          },
        },
        async (context) => {
          await initialize(context);
          const { sessionId } = await newSession(context, api.workspace);
          const answer = promptText(context, sessionId, 'touch it');
          await until(() => asked, 'the permission question');
          await context.notify('session/cancel', { sessionId });
          const cancelled = await answer;
          const next = await promptText(context, sessionId, 'never mind');
          return { cancelled, next };
        },
      );
      expect(code).toBe(0);
      expect(value.cancelled.stopReason).toBe('cancelled');
      expect(value.next.stopReason).toBe('end_turn');
      expect(existsSync(path.join(api.workspace, 'should-not-exist'))).toBe(false);
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "runs the project's hooks as the CLI does: a PreToolUse hook that exits 2 blocks the call, and the editor sees why",
    async () => {
      mkdirSync(path.join(api.workspace, '.xagent'));
      const hook = { type: 'command', command: 'echo "no bash on Fridays" >&2; exit 2' };
      writeFileSync(
        path.join(api.workspace, '.xagent/settings.json'),
        JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'bash', hooks: [hook] }] } }),
      );
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_bash', name: 'bash', input: { command: 'echo hi' } }] },
        { text: 'Blocked, so I stopped.' },
      ]);
      const acp = startAcp(['--permission-mode', 'bypassPermissions'], env);
      const { value, log, code } = await withEditor(acp, {}, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'say hi with bash');
      });
      expect(code).toBe(0);
      expect(value.stopReason).toBe('end_turn');
      const last = log.updates
        .map((u) => u.update)
        .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === 'toolu_bash')
        .at(-1);
      expect(last).toMatchObject({ status: 'failed' });
      expect(JSON.stringify(last)).toContain('no bash on Fridays');
      expect(JSON.stringify(api.fake.requests[1]?.body)).toContain('no bash on Fridays');
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'SIGTERM while a command runs (the editor quits): the agent stops it, exits 0, and the session loads and goes on',
    async () => {
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_sleep', name: 'bash', input: { command: 'sleep 60 & echo $! > sleeper.pid; wait' } }] },
        { text: 'Picked up again.' },
      ]);
      const pidFile = path.join(api.workspace, 'sleeper.pid');
      const first = startAcp(['--permission-mode', 'bypassPermissions'], env);
      let sessionId = '';
      // The agent goes away under the client, which then ends its connection with an error: expected here.
      await withEditor(first, {}, async (context) => {
        await initialize(context);
        ({ sessionId } = await newSession(context, api.workspace));
        const answer = promptText(context, sessionId, 'sleep');
        await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command to start');
        first.child.kill('SIGTERM');
        await answer.catch(() => undefined);
      }).catch((error: Error) => expect(error.message).toMatch(/closed/));
      const code = await first.exited;
      expect(code).toBe(0);
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      await until(() => !alive(pid), `the sleep (pid ${pid}) to be gone`, 10_000);

      const second = startAcp([], env);
      const { value, code: secondCode } = await withEditor(second, {}, async (context) => {
        await initialize(context);
        await context.request('session/load', { sessionId, cwd: api.workspace, mcpServers: [] });
        return promptText(context, sessionId, 'go on');
      });
      expect(secondCode).toBe(0);
      expect(value.stopReason).toBe('end_turn');
      // The fake accepted the continued conversation: every tool_use kept its tool_result.
      expect(api.fake.rejected).toEqual([]);
      expect(invalidAgentLines(second.stdoutLines, second.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
