import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SessionNotification, ToolCallContent } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { choose, initialize, invalidAgentLines, newSession, promptText, startAcp, withEditor, type EditorLog } from './acp-harness.js';

/**
 * Issue 39, in the editor: "Always allow" on an edit turns on accept edits for the session (as
 * the terminal UI's "don't ask again" does) instead of a permanent rule for that one file; an
 * editor that refuses by its own policy (answering `cancelled` while the turn goes on) is reported
 * as the editor's refusal, never as the person's.
 */
const api = useFakeApi();
const TEST_TIMEOUT = 60_000;

const updates = (log: EditorLog, kind: string) =>
  log.updates
    .filter((u) => u.update.sessionUpdate === kind)
    .map((u) => u.update as SessionNotification['update'] & Record<string, unknown>);
const text = (content: unknown) =>
  ((content ?? []) as ToolCallContent[]).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('\n');
const edit = (id: string, file: string, from: string, to: string) => ({
  content: [{ type: 'tool_use', id, name: 'edit_file', input: { path: file, old_string: from, new_string: to } }],
});

describe('xagent acp: permission answers', () => {
  it(
    '"Always allow" on an edit accepts edits for the session: the next edit, of another file, is not asked, and no rule is saved',
    async () => {
      writeFileSync(path.join(api.workspace, 'a.txt'), 'one\n');
      writeFileSync(path.join(api.workspace, 'b.txt'), 'two\n');
      const env = await api.start([
        edit('toolu_a', 'a.txt', 'one', 'ONE'),
        edit('toolu_b', 'b.txt', 'two', 'TWO'),
        { text: 'Both edited.' },
      ]);
      const acp = startAcp([], env);
      const { value, log, code } = await withEditor(acp, { permission: (request) => choose(request, 'allow_always') }, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'edit both');
      });
      expect(code).toBe(0);
      expect(value.stopReason).toBe('end_turn');
      expect(log.permissions).toHaveLength(1);
      expect(log.permissions[0]?.options.find((o) => o.kind === 'allow_always')?.name).toBe(
        'Always allow edits in this session (accept edits)',
      );
      expect(readFileSync(path.join(api.workspace, 'a.txt'), 'utf8')).toBe('ONE\n');
      expect(readFileSync(path.join(api.workspace, 'b.txt'), 'utf8')).toBe('TWO\n');
      expect(existsSync(path.join(api.workspace, '.xagent/settings.local.json'))).toBe(false);
      // The editor's mode picker follows.
      expect(updates(log, 'current_mode_update')).toEqual([{ sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' }]);
      expect(invalidAgentLines(acp.stdoutLines, acp.sentLines)).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    'an editor that answers cancelled by its own policy: the model is told the editor refused, the turn goes on, nothing says the person declined',
    async () => {
      const env = await api.start([
        { content: [{ type: 'tool_use', id: 'toolu_auto', name: 'bash', input: { command: 'touch refused.txt' } }] },
        { text: 'The editor refused; I will not touch it.' },
      ]);
      const acp = startAcp([], env);
      const { value, log, code } = await withEditor(acp, { permission: () => ({ outcome: { outcome: 'cancelled' } }) }, async (context) => {
        await initialize(context);
        const { sessionId } = await newSession(context, api.workspace);
        return promptText(context, sessionId, 'touch it');
      });
      expect(code).toBe(0);
      expect(value.stopReason).toBe('end_turn');
      expect(existsSync(path.join(api.workspace, 'refused.txt'))).toBe(false);
      const told = JSON.stringify(api.fake.requests[1]?.body);
      expect(told).toContain('The editor refused this bash call by its own policy, without asking the user');
      expect(told).not.toContain('The user did not allow');
      const failed = updates(log, 'tool_call_update').find((u) => u.toolCallId === 'toolu_auto' && u.status === 'failed');
      expect(text(failed?.content)).toContain('The editor refused this bash call by its own policy');
      const said = JSON.stringify(log.updates);
      expect(said).not.toContain('declined by you');
      const answer = updates(log, 'agent_message_chunk')
        .map((u) => (u.content as { text?: string }).text ?? '')
        .join('');
      expect(answer).toBe('The editor refused; I will not touch it.');
    },
    TEST_TIMEOUT,
  );
});
