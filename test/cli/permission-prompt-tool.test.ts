import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/run-cli.js';
import { processesWith } from '../mcp/support.js';

/**
 * Issue 39: `-p --permission-prompt-tool mcp__<server>__<tool>`, as in Claude Code: a real MCP
 * server (the official SDK, test/fixtures/approval-mcp-server.mjs) answers the questions nobody
 * is there to answer, with Claude Code's input and output shapes. A missing tool or an answer that
 * is not one is a denial the model reads, never a crash.
 */

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/approval-mcp-server.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bash = (command: string) => ({ content: [{ type: 'tool_use', name: 'bash', input: { command } }] });

async function run(tool: string, responses: unknown[], extra: string[] = []) {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-prompt-tool-')));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(workspace);
  const log = path.join(root, 'questions.jsonl');
  writeFileSync(
    path.join(workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { approver: { command: process.execPath, args: [SERVER, workspace], env: { APPROVAL_LOG: log } } } }),
  );
  const script = path.join(root, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const cli = await runCli(
    ['-p', 'go', '--cwd', workspace, '--model-script', script, '--output-format', 'json', '--permission-prompt-tool', tool, ...extra],
    { env: { XAGENT_HOME: home } },
  );
  const transcript = () => {
    const [session] = readdirSync(path.join(home, 'sessions'));
    return jsonLines(readFileSync(path.join(home, 'sessions', session ?? '', 'transcript.jsonl'), 'utf8'));
  };
  const questions = () => jsonLines(readFileSync(log, 'utf8'));
  expect(processesWith(workspace)).toEqual([]);
  return { cli, result: jsonLines(cli.stdout)[0] ?? {}, transcript, questions, workspace };
}

/** The tool_result blocks the transcript holds, in order. */
function toolResults(lines: Array<Record<string, unknown>>): Array<{ tool_use_id: string; content: string; is_error?: boolean }> {
  return lines.flatMap((line) =>
    Array.isArray(line.content)
      ? (line.content as Array<{ type: string; tool_use_id: string; content: string; is_error?: boolean }>).filter(
          (b) => b.type === 'tool_result',
        )
      : [],
  );
}

describe('--permission-prompt-tool', () => {
  it("asks the MCP tool with Claude Code's input; its allow runs the call, its deny goes back to the model and into permission_denials", async () => {
    const r = await run('mcp__approver__approve', [
      bash('touch ran.txt && echo allowed-ran'),
      bash('touch forbidden.txt'),
      { text: 'done' },
    ]);
    expect(r.cli.code).toBe(0);
    expect(r.result).toMatchObject({ reason: 'final_answer', is_error: false });
    const questions = r.questions();
    expect(questions).toHaveLength(2);
    expect(questions[0]).toMatchObject({ tool_name: 'Bash', input: { command: 'touch ran.txt && echo allowed-ran' } });
    expect(questions[0]?.tool_use_id).toMatch(/\S/);
    const results = toolResults(r.transcript());
    expect(results[0]).toMatchObject({ content: 'allowed-ran\n[exit code: 0]', is_error: false });
    expect(results[1]).toMatchObject({ is_error: true });
    expect(results[1]?.content).toContain('The approver refuses Bash: it mentions a forbidden thing.');
    expect(readdirSync(r.workspace)).not.toContain('forbidden.txt');
    expect(r.result.permission_denials).toEqual([
      { tool_name: 'Bash', tool_use_id: results[1]?.tool_use_id, tool_input: { command: 'touch forbidden.txt' } },
    ]);
  });

  it('a tool that answers something other than allow or deny is a denial saying so; the task goes on', async () => {
    const r = await run('mcp__approver__garbage', [bash('touch never.txt'), { text: 'done' }]);
    expect(r.cli.code).toBe(0);
    expect(r.result).toMatchObject({ reason: 'final_answer' });
    const [result] = toolResults(r.transcript());
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toContain('the permission prompt tool mcp__approver__garbage answered "sure, go ahead", not JSON');
    expect(readdirSync(r.workspace)).not.toContain('never.txt');
    expect(r.result.permission_denials).toHaveLength(1);
  });

  it('an allow with a changed input is refused, not run with either input', async () => {
    const r = await run('mcp__approver__rewrite', [bash('touch original.txt'), { text: 'done' }]);
    expect(r.cli.code).toBe(0);
    const [result] = toolResults(r.transcript());
    expect(result).toMatchObject({ is_error: true });
    expect(result?.content).toContain('answered allow with a changed input');
  });

  it("a tool the servers do not have is a denial naming the run's MCP tools, not a crash", async () => {
    const r = await run('mcp__approver__nope', [bash('touch never.txt'), { text: 'done' }]);
    expect(r.cli.code).toBe(0);
    const [result] = toolResults(r.transcript());
    expect(result?.content).toContain('mcp__approver__nope is not available (MCP tools of this run: mcp__approver__approve');
  });

  it('a server no file configures is a warning at start, and each question a denial', async () => {
    const r = await run('mcp__nobody__approve', [bash('touch never.txt'), { text: 'done' }]);
    expect(r.cli.code).toBe(0);
    expect(r.cli.stderr).toContain(
      'warning: --permission-prompt-tool mcp__nobody__approve: no MCP server "nobody" is configured (servers: approver)',
    );
    expect(readdirSync(r.workspace)).not.toContain('never.txt');
    expect(r.result.permission_denials).toHaveLength(1);
  });

  it('with --stop-on-denial, its deny stops the task (exit 6)', async () => {
    const r = await run('mcp__approver__approve', [bash('touch forbidden.txt'), { text: 'done' }], ['--stop-on-denial']);
    expect(r.cli.code).toBe(6);
    expect(r.result).toMatchObject({ reason: 'permission_denied', is_error: true });
  });

  it('a name that is not an MCP tool is a usage error (exit 2) with one JSON result', async () => {
    const r = await run('approve', [{ text: 'done' }]);
    expect(r.cli.code).toBe(2);
    expect(r.result).toMatchObject({ is_error: true });
    expect(JSON.stringify(r.result)).toContain('is not an MCP tool');
  });
});
