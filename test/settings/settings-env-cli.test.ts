import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/run-cli.js';
import { everythingServer, processesWith } from '../mcp/support.js';

/**
 * Issue 39: Claude Code's settings `env` reaches what a run starts: the bash tool's commands,
 * command hooks and stdio MCP servers (the real server-everything, whose get-env prints its
 * environment), merged as Claude Code merges it (local over project over user), never with the
 * agent's API key, and from a project file only once trusted.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-env-')));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'xagent-home');
  const userHome = path.join(root, 'user');
  for (const dir of [path.join(workspace, '.claude'), home, path.join(userHome, '.claude')]) mkdirSync(dir, { recursive: true });
  const write = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value));
  const script = (responses: unknown[]) => {
    const file = path.join(root, 'script.json');
    write(file, { responses });
    return file;
  };
  return { root, workspace, home, userHome, write, script };
}

const bash = (command: string) => ({ content: [{ type: 'tool_use', name: 'bash', input: { command } }] });

describe('settings env', () => {
  it('reaches bash, a command hook and an MCP server, local over project over user, without the API key', async () => {
    const s = setup();
    s.write(path.join(s.userHome, '.claude', 'settings.json'), {
      env: { USER_VAR: 'from-user', SHARED: 'user', ANTHROPIC_API_KEY: 'sk-ant-planted-in-settings' },
    });
    s.write(path.join(s.workspace, '.claude', 'settings.json'), {
      env: { PROJECT_VAR: 'from-project', SHARED: 'project', RETRIES: 3 },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'echo "$PROJECT_VAR $SHARED $USER_VAR key=$ANTHROPIC_API_KEY" > hook-env.txt' }],
          },
        ],
      },
    });
    s.write(path.join(s.workspace, '.claude', 'settings.local.json'), { env: { SHARED: 'local' } });
    s.write(path.join(s.workspace, '.mcp.json'), {
      mcpServers: { everything: { ...everythingServer(s.workspace), env: { SERVER_OWN: 'own', SHARED: 'server' } } },
    });
    const script = s.script([
      bash('echo "$PROJECT_VAR|$SHARED|$USER_VAR|$RETRIES|key=$ANTHROPIC_API_KEY."'),
      { content: [{ type: 'tool_use', name: 'mcp__everything__get-env', input: {} }] },
      { text: 'done' },
    ]);
    const run = await runCli(
      [
        '-p',
        'go',
        '--cwd',
        s.workspace,
        '--model-script',
        script,
        '--allow',
        'bash',
        '--allow',
        'mcp__everything',
        '--output-format',
        'json',
      ],
      { env: { XAGENT_HOME: s.home, HOME: s.userHome, ANTHROPIC_API_KEY: 'sk-ant-the-real-key' } },
    );
    expect(run.stderr).toContain('env.ANTHROPIC_API_KEY is not given to commands');
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout)[0]).toMatchObject({ reason: 'final_answer', tool_calls: 2 });
    const transcript = readFileSync(path.join(s.home, 'sessions', readSessionId(s.home), 'transcript.jsonl'), 'utf8');
    expect(transcript).toContain('from-project|local|from-user|3|key=.');
    expect(readFileSync(path.join(s.workspace, 'hook-env.txt'), 'utf8')).toBe('from-project local from-user key=\n');
    // get-env prints the server's environment: the settings' variables, its own entry winning over them.
    const env = serverEnv(transcript);
    expect(env).toMatchObject({ PROJECT_VAR: 'from-project', USER_VAR: 'from-user', SERVER_OWN: 'own', SHARED: 'server' });
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(transcript).not.toContain('sk-ant-planted-in-settings');
    expect(transcript).not.toContain('sk-ant-the-real-key');
    expect(processesWith(s.workspace)).toEqual([]);
  });

  it("a project's env waits for trust: -p exits 2 naming each variable (not its value), and --trust applies it", async () => {
    const s = setup();
    s.write(path.join(s.workspace, '.claude', 'settings.json'), { env: { PATH: `${s.root}/planted-bin:/usr/bin:/bin`, HARMLESS: '1' } });
    const script = s.script([bash('echo "path=$PATH" > seen.txt'), { text: 'done' }]);
    const args = ['-p', 'go', '--cwd', s.workspace, '--model-script', script, '--allow', 'bash'];
    const env = { XAGENT_HOME: s.home, HOME: s.userHome, XAGENT_TRUST: undefined };
    const refused = await runCli([...args, '--output-format', 'json'], { env });
    expect(refused.code).toBe(2);
    const [result] = jsonLines(refused.stdout);
    expect(result).toMatchObject({ is_error: true });
    expect(JSON.stringify(result)).toContain('env PATH (changes which programs run)');
    expect(JSON.stringify(result)).toContain('env HARMLESS');
    // The value is not shown (a local file may hold a token); the name is.
    expect(refused.stderr + refused.stdout).not.toContain('planted-bin');
    expect(readdirSync(s.workspace)).not.toContain('seen.txt');
    // Trusted for the run: the variables apply.
    const trusted = await runCli([...args, '--trust'], { env });
    expect(trusted.code).toBe(0);
    expect(readFileSync(path.join(s.workspace, 'seen.txt'), 'utf8')).toContain(`path=${s.root}/planted-bin:`);
  });

  it("xagent's own settings file refuses an env value that is not a string, naming the file and the variable", async () => {
    const s = setup();
    mkdirSync(path.join(s.workspace, '.xagent'));
    s.write(path.join(s.workspace, '.xagent', 'settings.json'), { env: { GOOD: 'yes', BAD: { nested: true } } });
    const script = s.script([{ text: 'done' }]);
    const run = await runCli(['-p', 'go', '--cwd', s.workspace, '--model-script', script], {
      env: { XAGENT_HOME: s.home, HOME: s.userHome },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('.xagent/settings.json');
    expect(run.stderr).toContain('env.BAD: the value must be a string');
  });
});

function readSessionId(home: string): string {
  return readdirSync(path.join(home, 'sessions'))[0] ?? '';
}

/** server-everything's get-env answer (a JSON object of its environment), from the transcript's tool_result. */
function serverEnv(transcript: string): Record<string, string> {
  for (const line of jsonLines(transcript)) {
    const content = (line as { content?: unknown }).content;
    const blocks = Array.isArray(content) ? (content as Array<{ type: string; content?: unknown }>) : [];
    for (const block of blocks) {
      if (block.type !== 'tool_result' || typeof block.content !== 'string' || !block.content.includes('SERVER_OWN')) continue;
      return JSON.parse(block.content) as Record<string, string>;
    }
  }
  throw new Error('no get-env result in the transcript');
}
