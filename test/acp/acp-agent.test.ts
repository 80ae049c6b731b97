import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { SessionNotification, ToolCallContent } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import {
  choose,
  initialize,
  invalidAgentLines,
  kinds,
  newSession,
  promptText,
  startAcp,
  until,
  withEditor,
  type EditorLog,
} from './acp-harness.js';

const api = useFakeApi();

function updatesOf(log: EditorLog, kind: string): Array<SessionNotification['update'] & Record<string, unknown>> {
  return log.updates
    .filter((u) => u.update.sessionUpdate === kind)
    .map((u) => u.update as SessionNotification['update'] & Record<string, unknown>);
}

function textOf(log: EditorLog, kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updatesOf(log, kind)
    .map((u) => {
      const content = u.content as { type: string; text?: string };
      return content.type === 'text' ? content.text : '';
    })
    .join('');
}

function contentText(content: ToolCallContent[] | null | undefined): string {
  return (content ?? []).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('\n');
}

/** Every request body the fake received, as text: what the model was told. */
function requestText(index: number): string {
  return JSON.stringify(api.fake.requests[index]?.body);
}

const TEST_TIMEOUT = 60_000;

describe('xagent acp', () => {
  it(
    'streams a read and an edit as tool calls: the read with its file and text, the edit with a diff the editor can apply, thinking as thought chunks',
    async () => {
      writeFileSync(path.join(api.workspace, 'notes.txt'), 'hello world\nsecond line\n');
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'notes.txt' } }] },
        {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_edit',
              name: 'edit_file',
              input: { path: 'notes.txt', old_string: 'hello world', new_string: 'goodbye world' },
            },
          ],
        },
        { text: 'Changed the greeting.' },
      ]);
      const acp = startAcp(['--max-thinking-tokens', '1024'], env);
      const { value, log, code } = await withEditor(acp, {}, async (context) => {
        const init = await initialize(context);
        const session = await newSession(context, api.workspace);
        expect(session.modes?.availableModes.map((m) => m.id)).toEqual(['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions']);
        // Edits without asking: the mode picker is xagent's permission modes.
        await context.request('session/set_mode', { sessionId: session.sessionId, modeId: 'acceptEdits' });
        const answer = await context.request('session/prompt', {
          sessionId: session.sessionId,
          prompt: [{ type: 'text', text: 'Say goodbye in notes.txt' }],
        });
        return { init, answer };
      });
      expect(code).toBe(0);
      expect(value.init.protocolVersion).toBe(1);
      expect(value.init.agentCapabilities?.loadSession).toBe(true);
      expect(value.answer.stopReason).toBe('end_turn');
      expect(log.permissions).toEqual([]);

      const calls = updatesOf(log, 'tool_call');
      expect(calls.map((c) => [c.toolCallId, c.kind, c.title])).toEqual([
        ['toolu_read', 'read', 'Read notes.txt'],
        ['toolu_edit', 'edit', 'Edit notes.txt'],
      ]);
      expect(calls[0]?.locations).toEqual([{ path: path.join(api.workspace, 'notes.txt') }]);
      const finals = updatesOf(log, 'tool_call_update').filter((u) => u.status === 'completed');
      expect(finals.map((u) => u.toolCallId)).toEqual(['toolu_read', 'toolu_edit']);
      expect(contentText(finals[0]?.content as ToolCallContent[])).toContain('hello world');
      const diff = (finals[1]?.content as ToolCallContent[]).find((c) => c.type === 'diff');
      expect(diff).toMatchObject({
        type: 'diff',
        path: expect.stringMatching(/notes\.txt$/),
        oldText: 'hello world\nsecond line\n',
        newText: 'goodbye world\nsecond line\n',
      });
      expect(updatesOf(log, 'tool_call_update').filter((u) => u.status === 'in_progress')).toHaveLength(2);
      expect(textOf(log, 'agent_message_chunk')).toBe('Changed the greeting.');
      expect(textOf(log, 'agent_thought_chunk')).toContain('Let me think');
      expect(readFileSync(path.join(api.workspace, 'notes.txt'), 'utf8')).toBe('goodbye world\nsecond line\n');
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'asks the editor before bash: allow once runs it; reject stops the turn and the model is told on the next prompt',
    async () => {
      const env = await api.start([
        // printf, not echo: echo is read-only and runs without asking.
        { content: [{ type: 'tool_use', id: 'toolu_ok', name: 'bash', input: { command: 'printf from-bash' } }] },
        { text: 'It printed from-bash.' },
        { content: [{ type: 'tool_use', id: 'toolu_no', name: 'bash', input: { command: 'printf refused' } }] },
        { text: 'Understood, I will not run it.' },
      ]);
      const acp = startAcp([], env);
      let asked = 0;
      const { value, log, code } = await withEditor(
        acp,
        { permission: (request) => choose(request, asked++ === 0 ? 'allow_once' : 'reject_once') },
        async (context) => {
          await initialize(context);
          const { sessionId } = await newSession(context, api.workspace);
          const first = await promptText(context, sessionId, 'run echo');
          const second = await promptText(context, sessionId, 'run it again');
          const third = await promptText(context, sessionId, 'why not?');
          return { first, second, third };
        },
      );
      expect(code).toBe(0);
      expect([value.first.stopReason, value.second.stopReason, value.third.stopReason]).toEqual(['end_turn', 'end_turn', 'end_turn']);
      expect(log.permissions).toHaveLength(2);
      const [ask] = log.permissions;
      expect(ask?.toolCall).toMatchObject({ toolCallId: 'toolu_ok', kind: 'execute', title: 'Run printf from-bash' });
      expect(ask?.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
      // "always" would save the terminal dialog's prefix rule.
      expect(ask?.options.find((o) => o.kind === 'allow_always')?.name).toContain('bash(printf from-bash*)');

      const ran = updatesOf(log, 'tool_call_update').find((u) => u.toolCallId === 'toolu_ok' && u.status === 'completed');
      expect(contentText(ran?.content as ToolCallContent[])).toContain('from-bash');
      const refused = updatesOf(log, 'tool_call_update').find((u) => u.toolCallId === 'toolu_no');
      expect(refused?.status).toBe('failed');
      // The model is told as in the terminal UI: the refusal is the call's result in the next request.
      expect(requestText(3)).toContain('The user did not allow this bash call.');
      expect(existsSync(path.join(api.workspace, '.xagent/settings.local.json'))).toBe(false);
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'allow always saves the same prefix rule as the terminal dialog, and is not asked again',
    async () => {
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm --version' } }] },
        { content: [{ type: 'tool_use', id: 'toolu_2', name: 'bash', input: { command: 'npm --version' } }] },
        { text: 'done' },
      ]);
      const acp = startAcp([], env);
      const { log, code } = await withEditor(acp, { permission: (request) => choose(request, 'allow_always') }, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'npm version twice');
      });
      expect(code).toBe(0);
      expect(log.permissions).toHaveLength(1);
      const saved = JSON.parse(readFileSync(path.join(api.workspace, '.xagent/settings.local.json'), 'utf8')) as {
        permissions: { allow: string[] };
      };
      expect(saved.permissions.allow).toEqual(['bash(npm --version)']);
    },
    TEST_TIMEOUT,
  );

  it(
    'session/cancel during a streaming answer: the prompt answers cancelled and the session goes on with a valid transcript',
    async () => {
      const env = await api.start([
        { text: Array.from({ length: 200 }, (_, i) => `word${i} `).join(''), eventDelayMs: 50 },
        { text: 'Still here.' },
      ]);
      const acp = startAcp([], env);
      const { value, log, code } = await withEditor(acp, {}, async (context, log) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        const answer = promptText(context, sessionId, 'talk slowly');
        await until(() => kinds(log).includes('agent_message_chunk'), 'the first chunk');
        await context.notify('session/cancel', { sessionId });
        const cancelled = await answer;
        const next = await promptText(context, sessionId, 'are you there?');
        return { cancelled, next };
      });
      expect(code).toBe(0);
      expect(value.cancelled.stopReason).toBe('cancelled');
      expect(value.next.stopReason).toBe('end_turn');
      expect(textOf(log, 'agent_message_chunk')).toContain('Still here.');
      // The second request carries the interrupted answer as the transcript recorded it.
      expect(requestText(1)).toContain('[Request interrupted by user]');
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'session/cancel during a running tool: the prompt answers cancelled, the command is killed, the tool call fails',
    async () => {
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_sleep', name: 'bash', input: { command: 'sleep 60 & echo $! > sleeper.pid; wait' } }] },
        { text: 'After the cancel.' },
      ]);
      const acp = startAcp(['--permission-mode', 'bypassPermissions'], env);
      const pidFile = path.join(api.workspace, 'sleeper.pid');
      const { value, log, code } = await withEditor(acp, {}, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        const answer = promptText(context, sessionId, 'sleep');
        await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command to start');
        await context.notify('session/cancel', { sessionId });
        const cancelled = await answer;
        const next = await promptText(context, sessionId, 'go on');
        return { cancelled, next };
      });
      expect(code).toBe(0);
      expect(value.cancelled.stopReason).toBe('cancelled');
      expect(value.next.stopReason).toBe('end_turn');
      const pid = Number(readFileSync(pidFile, 'utf8').trim());
      await until(() => !alive(pid), `the sleep (pid ${pid}) to be gone`, 10_000);
      const last = updatesOf(log, 'tool_call_update')
        .filter((u) => u.toolCallId === 'toolu_sleep')
        .at(-1);
      expect(last?.status).toBe('failed');
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'session/load replays a recorded session as updates, then continues it',
    async () => {
      writeFileSync(path.join(api.workspace, 'notes.txt'), 'remember me\n');
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'notes.txt' } }] },
        { text: 'The file says remember me.' },
        { text: 'You asked about notes.txt.' },
      ]);
      const first = startAcp([], env);
      const { value: sessionId } = await withEditor(first, {}, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        await promptText(context, sessionId, 'What is in notes.txt?');
        return sessionId;
      });

      const second = startAcp([], env);
      const { value, log, code } = await withEditor(second, {}, async (context, log) => {
        await initialize(context);
        // Only the exact id: a prefix (which --resume takes) would leave the editor with an id the agent does not know.
        await expect(
          context.request('session/load', { sessionId: sessionId.slice(0, 8), cwd: api.workspace, mcpServers: [] }),
        ).rejects.toMatchObject({
          code: -32002,
        });
        await context.request('session/load', { sessionId, cwd: api.workspace, mcpServers: [] });
        const replayed = log.updates.length;
        const answer = await promptText(context, sessionId, 'What did I ask?');
        return { replayed, answer };
      });
      expect(code).toBe(0);
      const replay: EditorLog = { ...log, updates: log.updates.slice(0, value.replayed) };
      expect(textOf(replay, 'user_message_chunk')).toContain('What is in notes.txt?');
      expect(updatesOf(replay, 'tool_call')).toMatchObject([{ toolCallId: 'toolu_read', kind: 'read', status: 'completed' }]);
      expect(contentText(updatesOf(replay, 'tool_call')[0]?.content as ToolCallContent[])).toContain('remember me');
      expect(textOf(replay, 'agent_message_chunk')).toBe('The file says remember me.');
      expect(value.answer.stopReason).toBe('end_turn');
      // The continued conversation holds the earlier one.
      expect(requestText(2)).toContain('What is in notes.txt?');
      expect(invalidAgentLines(second.stdoutLines, second.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "reads an unsaved buffer through the editor's fs/read_text_file",
    async () => {
      const file = path.join(api.workspace, 'draft.md');
      writeFileSync(file, 'saved text on disk\n');
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'draft.md' } }] },
        { text: 'Read it.' },
      ]);
      const acp = startAcp([], env);
      const buffers = new Map([[file, 'unsaved text in the editor\n']]);
      const { log, code } = await withEditor(acp, { buffers }, async (context) => {
        await initialize(context, { read: true });
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'read draft.md');
      });
      expect(code).toBe(0);
      expect(log.reads.map((r) => r.path)).toEqual([file]);
      expect(requestText(1)).toContain('unsaved text in the editor');
      expect(requestText(1)).not.toContain('saved text on disk');
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'writes through the editor (fs/write_text_file): edit_file changes the unsaved buffer, write_file a new one; the disk is untouched',
    async () => {
      const notes = path.join(api.workspace, 'notes.txt');
      writeFileSync(notes, 'hello world\n');
      const env = await api.start([
        {
          content: [
            {
              type: 'tool_use',
              id: 'toolu_edit',
              name: 'edit_file',
              input: { path: 'notes.txt', old_string: 'unsaved', new_string: 'edited' },
            },
            { type: 'tool_use', id: 'toolu_write', name: 'write_file', input: { path: 'fresh.txt', content: 'brand new\n' } },
          ],
        },
        { text: 'Both done.' },
      ]);
      const acp = startAcp(['--permission-mode', 'acceptEdits'], env);
      const buffers = new Map([[notes, 'hello unsaved world\n']]);
      const { value, log, code } = await withEditor(acp, { buffers, writable: true }, async (context) => {
        await initialize(context, { read: true, write: true });
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'edit and write');
      });
      expect(code).toBe(0);
      expect(value.stopReason).toBe('end_turn');
      expect(log.writes.map((w) => [w.path, w.content])).toEqual([
        [notes, 'hello edited world\n'],
        [path.join(api.workspace, 'fresh.txt'), 'brand new\n'],
      ]);
      expect(readFileSync(notes, 'utf8')).toBe('hello world\n');
      expect(existsSync(path.join(api.workspace, 'fresh.txt'))).toBe(false);
      const done = updatesOf(log, 'tool_call_update').filter((u) => u.status === 'completed');
      expect(done.map((u) => u.toolCallId)).toEqual(['toolu_edit', 'toolu_write']);
      // The diffs are of the buffers, which is where the change went.
      expect((done[0]?.content as ToolCallContent[]).find((c) => c.type === 'diff')).toMatchObject({
        path: notes,
        oldText: 'hello unsaved world\n',
        newText: 'hello edited world\n',
      });
      expect((done[1]?.content as ToolCallContent[]).find((c) => c.type === 'diff')).toMatchObject({
        oldText: null,
        newText: 'brand new\n',
      });
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
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
