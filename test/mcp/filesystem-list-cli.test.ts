import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { everythingServer, FILESYSTEM, processesWith, toolResults, writeMcpJson } from './support.js';

/** server-filesystem reading a file in its allowed folder, and `xagent mcp list`. */
const api = useFakeApi();

describe('server-filesystem over stdio', () => {
  it('reads a file in the folder it was given', async () => {
    const docs = path.join(api.workspace, 'docs');
    mkdirSync(docs);
    writeFileSync(path.join(docs, 'note.txt'), 'the note says 42\n');
    writeMcpJson(api.workspace, { fs: { command: process.execPath, args: [FILESYSTEM, docs] } });
    const env = await api.start([
      { content: [{ type: 'tool_use', id: 'toolu_1', name: 'mcp__fs__read_text_file', input: { path: path.join(docs, 'note.txt') } }] },
      { text: '42' },
    ]);
    const run = await runCli(['-p', 'read the note', '--cwd', api.workspace, '--allow', 'mcp__fs__read_text_file'], { env });
    expect(run.code).toBe(0);
    const [result] = toolResults(api.fake.requests[1]?.body);
    expect(result).toMatchObject({ is_error: false });
    expect(result?.content).toContain('the note says 42');
  });
});

describe('xagent mcp list', () => {
  it('--json: one object with each server, its transport, status and tool names; env names only; exit 0 with a failed server', async () => {
    writeMcpJson(api.workspace, {
      everything: everythingServer(api.workspace, { API_TOKEN: '${LIST_SECRET}' }),
      ghost: { command: 'xagent-no-such-command-here' },
      web: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { 'X-Key': 'header-secret-77aa' } },
    });
    const run = await runCli(['mcp', 'list', '--json', '--cwd', api.workspace], {
      env: { XAGENT_HOME: api.home, LIST_SECRET: 'list-secret-31f0c2' },
    });
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const listed = JSON.parse(lines[0] ?? '') as { servers: Array<Record<string, unknown>> };
    const byName = Object.fromEntries(listed.servers.map((s) => [s.name, s]));
    expect(byName.everything).toMatchObject({ transport: 'stdio', status: 'connected', env: ['API_TOKEN'] });
    expect(byName.everything?.tools).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum']));
    expect(byName.ghost).toMatchObject({ transport: 'stdio', status: 'failed' });
    expect(String(byName.ghost?.error)).toContain('cannot run "xagent-no-such-command-here"');
    expect(byName.web).toMatchObject({ transport: 'http', status: 'failed', headers: ['X-Key'], tools: [] });
    expect(run.stdout + run.stderr).not.toContain('list-secret-31f0c2');
    expect(run.stdout + run.stderr).not.toContain('header-secret-77aa');
    expect(processesWith(api.workspace)).toEqual([]);
  });

  it('text: says when nothing is configured', async () => {
    const run = await runCli(['mcp', 'list', '--cwd', api.workspace], { env: { XAGENT_HOME: api.home } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No MCP servers configured');
  });
});
