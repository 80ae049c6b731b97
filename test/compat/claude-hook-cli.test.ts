import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJson } from '../support/engine-harness.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/**
 * A PreToolUse guard written for Claude Code, in the shape of the most copied public one: it
 * reads the hook JSON on stdin, checks `tool_name == "Bash"` for `rm -rf` and the file tools'
 * `tool_input.file_path` for `.env`, and exits 2 with a message. Configured in
 * `.claude/settings.json` with an empty matcher, it must block both through the built CLI, even
 * in bypassPermissions mode, as it does in Claude Code.
 */
const GUARD = String.raw`#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const data = JSON.parse(fs.readFileSync(0, 'utf8'));
fs.appendFileSync(path.join(process.env.CLAUDE_PROJECT_DIR, 'hook-inputs.jsonl'), JSON.stringify(data) + '\n');
const toolName = data.tool_name || '';
const toolInput = data.tool_input || {};
function isDangerousRm(command) {
  const normalized = command.toLowerCase().replace(/\s+/g, ' ');
  return /\brm\s+(-[a-z]*r[a-z]*f|-[a-z]*f[a-z]*r|--recursive\s+--force|--force\s+--recursive)\b/.test(normalized);
}
function isEnvFileAccess(name, input) {
  if (['Read', 'Edit', 'MultiEdit', 'Write'].includes(name)) {
    const filePath = input.file_path || '';
    return path.basename(filePath) === '.env';
  }
  if (name === 'Bash') return /\.env\b(?!\.sample|\.example)/.test(input.command || '');
  return false;
}
if (toolName === 'Bash' && isDangerousRm(toolInput.command || '')) {
  console.error('BLOCKED: Dangerous rm command detected and prevented');
  process.exit(2);
}
if (isEnvFileAccess(toolName, toolInput)) {
  console.error('BLOCKED: Access to .env files containing sensitive data is prohibited');
  process.exit(2);
}
process.exit(0);
`;

const api = useFakeApi();

type Messages = Array<{ role: string; content: Array<Record<string, unknown>> }>;
const messagesOf = (request: number): Messages => (api.fake.requests[request]!.body as { messages: Messages }).messages;
const toolUse = (id: string, name: string, input: Record<string, unknown>): FakeResponse => ({
  content: [{ type: 'tool_use', id, name, input }],
});

function claudeProject(settings: Record<string, unknown>, file = 'settings.json'): void {
  mkdirSync(path.join(api.workspace, '.claude', 'hooks'), { recursive: true });
  writeJson(path.join(api.workspace, '.claude', file), settings);
}

async function run(script: FakeResponse[], args: string[] = []) {
  const env = await api.start(script);
  const result = await runCli(['-p', 'clean up', '--cwd', api.workspace, '--output-format', 'json', ...args], {
    env: { ...env, HOME: api.workspace },
  });
  return { ...result, json: jsonLines(result.stdout).at(-1) ?? {} };
}

describe('a Claude Code hook script, unchanged, in xagent', () => {
  it('blocks rm -rf and a read of .env as Claude Code does, in bypassPermissions mode too', async () => {
    claudeProject({
      hooks: {
        PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/pre_tool_use.js' }] }],
      },
    });
    writeFileSync(path.join(api.workspace, '.claude', 'hooks', 'pre_tool_use.js'), GUARD);
    mkdirSync(path.join(api.workspace, 'build'));
    writeFileSync(path.join(api.workspace, 'build', 'out.js'), 'x');
    writeFileSync(path.join(api.workspace, '.env'), 'SECRET=do-not-read');
    const r = await run(
      [toolUse('toolu_1', 'bash', { command: 'rm -rf build' }), toolUse('toolu_2', 'read_file', { path: '.env' }), { text: 'done' }],
      ['--permission-mode', 'bypassPermissions'],
    );
    expect(r.code).toBe(0);
    expect(existsSync(path.join(api.workspace, 'build', 'out.js'))).toBe(true);
    const rmResult = messagesOf(1).at(-1)!.content[0]!;
    expect(rmResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(String(rmResult.content)).toContain('BLOCKED: Dangerous rm command');
    const readResult = messagesOf(2).at(-1)!.content[0]!;
    expect(readResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true });
    expect(String(readResult.content)).toContain('BLOCKED: Access to .env files');
    expect(JSON.stringify(api.fake.requests.map((q) => q.body))).not.toContain('do-not-read');

    const inputs = readFileSync(path.join(api.workspace, 'hook-inputs.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inputs[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf build' },
      permission_mode: 'bypassPermissions',
      cwd: api.workspace,
    });
    expect(inputs[1]).toMatchObject({
      tool_name: 'Read',
      tool_input: { file_path: path.join(api.workspace, '.env'), path: '.env' },
    });
  });

  it('a matcher written with Claude Code names (Write|Edit) fires for edit_file, and one for Bash for bash', async () => {
    claudeProject({
      hooks: {
        PreToolUse: [
          { matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'echo "no edits" >&2; exit 2' }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "no shell" >&2; exit 2' }] },
        ],
      },
    });
    writeFileSync(path.join(api.workspace, 'a.txt'), 'old');
    const r = await run(
      [
        toolUse('toolu_1', 'edit_file', { path: 'a.txt', old_string: 'old', new_string: 'new' }),
        toolUse('toolu_2', 'bash', { command: 'touch made.txt' }),
        { text: 'done' },
      ],
      ['--permission-mode', 'bypassPermissions'],
    );
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(api.workspace, 'a.txt'), 'utf8')).toBe('old');
    expect(existsSync(path.join(api.workspace, 'made.txt'))).toBe(false);
    expect(String(messagesOf(1).at(-1)!.content[0]!.content)).toContain('no edits');
    expect(String(messagesOf(2).at(-1)!.content[0]!.content)).toContain('no shell');
  });

  it('deny Bash(git push:*) in .claude/settings.local.json stops git push in bypassPermissions mode', async () => {
    claudeProject({ permissions: { deny: ['Bash(git push:*)'], allow: ['WebFetch(domain:github.com)'] } }, 'settings.local.json');
    const r = await run(
      [toolUse('toolu_1', 'bash', { command: 'git push origin main' }), { text: 'done' }],
      ['--permission-mode', 'bypassPermissions'],
    );
    expect(r.code).toBe(6);
    expect(r.json).toMatchObject({ reason: 'permission_denied' });
    expect(JSON.stringify(r.json.decision)).toContain('Bash(git push:*)');
    expect(r.stderr).toContain('rules for WebFetch kept, but xagent has no such tool');
  });

  it('runs SessionEnd hooks when the run ends, with reason, session and permission mode, and warns about Claude Code events it skips', async () => {
    claudeProject({
      hooks: {
        SessionEnd: [{ hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/session-end.json"' }] }],
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: 'true' }] }],
        SubagentStop: [{ hooks: [{ type: 'command', command: 'true' }] }],
      },
    });
    const r = await run([{ text: 'bye' }], ['--permission-mode', 'acceptEdits']);
    expect(r.code).toBe(0);
    const input = JSON.parse(readFileSync(path.join(api.workspace, 'session-end.json'), 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'other',
      session_id: r.json.session_id,
      permission_mode: 'acceptEdits',
    });
    expect(String(input.transcript_path)).toMatch(/transcript\.jsonl$/);
    expect(r.stderr).toContain('"hooks.PostToolUseFailure" is a Claude Code event that xagent does not run; skipped');
    // SubagentStop runs when a subagent ends (test/agents/one-pipeline-cli.test.ts): no warning for it.
    expect(r.stderr).not.toContain('SubagentStop');
  });

  it("PostToolUse and Stop hooks get Claude Code's fields: tool_response.stdout, duration_ms, stop_hook_active", async () => {
    claudeProject({
      hooks: {
        PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/post.json"' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'cat > "$CLAUDE_PROJECT_DIR/stop.json"' }] }],
      },
    });
    const r = await run([toolUse('toolu_1', 'bash', { command: 'echo hello' }), { text: 'all done' }], ['--allowedTools', 'Bash(echo:*)']);
    expect(r.code).toBe(0);
    const post = JSON.parse(readFileSync(path.join(api.workspace, 'post.json'), 'utf8')) as Record<string, unknown>;
    expect(post).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'echo hello' }, tool_response: { interrupted: false } });
    expect(String((post.tool_response as { stdout: string }).stdout)).toContain('hello');
    expect(typeof post.duration_ms).toBe('number');
    const stop = JSON.parse(readFileSync(path.join(api.workspace, 'stop.json'), 'utf8')) as Record<string, unknown>;
    expect(stop).toMatchObject({ hook_event_name: 'Stop', stop_hook_active: false, permission_mode: 'default' });
  });
});
