import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveMcpServers } from '../../src/mcp/config.js';
import { expandEnv } from '../../src/mcp/expand-env.js';
import { loadSettings, SettingsError } from '../../src/settings/settings.js';
import { tempDir } from '../support/engine-harness.js';
import { runCli } from '../support/run-cli.js';

const resolve = (value: unknown, env: NodeJS.ProcessEnv = {}) => resolveMcpServers([{ source: '/ws/.mcp.json', value }], env);
const problem = (value: unknown) => {
  try {
    resolve(value);
  } catch (error) {
    if (error instanceof SettingsError) return error.message;
    throw error;
  }
  return 'no error';
};

describe('MCP config', () => {
  it('expands ${VAR} and ${VAR:-default}; values from the environment are secrets', () => {
    expect(expandEnv('a ${X} ${Y:-dflt} ${Z}', { X: 'one' })).toEqual({ text: 'a one dflt ${Z}', substituted: ['one'], missing: ['Z'] });
    const [server] = resolve(
      { s: { command: '${BIN:-node}', args: ['--key=${KEY}'], env: { TOKEN: 'literal-secret-1' } } },
      { KEY: 'key-from-env-123' },
    );
    expect(server).toMatchObject({
      transport: 'stdio',
      command: 'node',
      args: ['--key=key-from-env-123'],
      display: '${BIN:-node} --key=${KEY}',
    });
    expect(server?.secrets).toEqual(expect.arrayContaining(['key-from-env-123', 'literal-secret-1']));
    const [web] = resolve({ w: { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer ${T}' } } }, { T: 'tok' });
    expect(web).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer tok' } });
    expect(web?.secrets).toEqual(['Bearer tok']);
  });

  it('an unset variable without a default makes that server fail to start, not the run', () => {
    const [server] = resolve({ s: { command: 'x', env: { PERPLEXITY_API_KEY: '${PERPLEXITY_API_KEY}' } } });
    expect(server?.problem).toBe('environment variable PERPLEXITY_API_KEY is not set');
    // The value left unexpanded is not a secret, so the message keeps the variable's name.
    expect(server?.secrets).toEqual([]);
  });

  it("takes Claude Code's sse servers, any server name and extra keys, warning about what it changes or ignores", () => {
    const warnings: string[] = [];
    const servers = resolveMcpServers(
      [
        {
          source: '/ws/.mcp.json',
          value: {
            'Bright Data': { command: 'npx', args: ['x'], cwd: '/tmp', alwaysAllow: ['a'] },
            legacy: { type: 'sse', url: 'https://example.com/sse', headers: { Authorization: 'Bearer t' } },
          },
        },
      ],
      {},
      (w) => warnings.push(w),
    );
    expect(servers.map((s) => [s.name, s.transport])).toEqual([
      ['Bright_Data', 'stdio'],
      ['legacy', 'sse'],
    ]);
    expect(warnings).toEqual([
      '/ws/.mcp.json: mcpServers.Bright Data: its tools are named mcp__Bright_Data__<tool>',
      '/ws/.mcp.json: mcpServers.Bright Data: ignored: "cwd", "alwaysAllow" (a stdio server takes type, command, args, env)',
    ]);
  });

  it.each([
    [{ ['x'.repeat(57)]: { command: 'x' } }, 'a server name is 1 to 56'],
    [{ s: { type: 'websocket', url: 'ws://x' } }, '"type" "websocket" is not supported'],
    [{ s: { command: 3 } }, 'mcpServers.s: "command" must be a non-empty string'],
    [{ s: { command: 'x', args: 'a b' } }, '"args" must be a list of strings'],
    [{ s: { command: 'x', env: { A: 1 } } }, '"env" must be an object of names to string values'],
    [{ s: { type: 'http', url: 'ftp://x' } }, '"url" must be an http:// or https:// URL'],
    [{ s: { type: 'http', url: 'http://x', headers: ['a'] } }, '"headers" must be an object'],
    [{ s: 'node server.js' }, 'mcpServers.s: must be an object'],
    [['s'], '"mcpServers" must be an object'],
  ])('refuses %j', (value, message) => {
    expect(problem(value)).toContain(message);
    expect(problem(value)).toContain('/ws/.mcp.json');
  });

  it('precedence: settings.local.json > settings.json > .mcp.json > user settings, whole entries', () => {
    const root = tempDir('xagent-mcp-config-');
    const home = path.join(root, 'home');
    const ws = path.join(root, 'ws');
    mkdirSync(path.join(ws, '.xagent'), { recursive: true });
    mkdirSync(home, { recursive: true });
    const write = (file: string, servers: Record<string, unknown>) => writeFileSync(file, JSON.stringify({ mcpServers: servers }));
    write(path.join(home, 'settings.json'), {
      a: { command: 'user' },
      b: { command: 'user' },
      c: { command: 'user' },
      d: { command: 'user' },
    });
    write(path.join(ws, '.mcp.json'), { a: { command: 'mcp-json' }, b: { command: 'mcp-json' }, c: { command: 'mcp-json', args: ['x'] } });
    write(path.join(ws, '.xagent', 'settings.json'), { a: { command: 'project' }, b: { command: 'project' } });
    write(path.join(ws, '.xagent', 'settings.local.json'), { a: { command: 'local' } });
    const servers = resolveMcpServers(loadSettings({ workspace: ws, home }).mcpServers, {});
    expect(servers.map((s) => [s.name, s.transport === 'stdio' ? s.command : '', s.transport === 'stdio' ? s.args : []])).toEqual([
      ['a', 'local', []],
      ['b', 'project', []],
      ['c', 'mcp-json', ['x']],
      ['d', 'user', []],
    ]);
  });

  it('the CLI exits 2 naming the file and the problem', async () => {
    const ws = tempDir('xagent-mcp-bad-');
    writeFileSync(path.join(ws, '.mcp.json'), JSON.stringify({ mcpServers: { 'bad args': { command: 'x', args: 'a b' } } }));
    const run = await runCli(['-p', 'hi', '--cwd', ws], { env: { XAGENT_HOME: tempDir('xagent-home-'), ANTHROPIC_API_KEY: 'sk-ant-x' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(ws, '.mcp.json')}: mcpServers.bad args: "args" must be a list of strings`);
  });
});
