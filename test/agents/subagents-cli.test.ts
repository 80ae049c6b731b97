import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../machines/types.js';
import { loadTranscript } from '../../src/sessions/transcript.js';
import { tempDir, unpairedToolUses } from '../support/engine-harness.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/**
 * Subagents through the built CLI against the fake API, which answers by reading each request:
 * the main agent starts three `reader` subagents in one response; each reads the file its prompt
 * names (or runs the command) and answers.
 */

type Body = { system?: unknown; messages: Array<{ role: string; content: unknown }> };
type Block = { type: string; text?: string; content?: unknown; tool_use_id?: string };

const READER = 'You are reader. Read the file you are given and say what it holds.';
const blocks = (message: { content: unknown } | undefined): Block[] =>
  Array.isArray(message?.content) ? (message.content as Block[]) : [{ type: 'text', text: String(message?.content ?? '') }];
const resultText = (b: Block) => (typeof b.content === 'string' ? b.content : JSON.stringify(b.content));

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function setup(files: Record<string, string>) {
  const home = tempDir('xagent-home-');
  const workspace = tempDir('xagent-ws-');
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(workspace, name), text);
  mkdirSync(path.join(workspace, '.claude', 'agents'), { recursive: true });
  writeFileSync(
    path.join(workspace, '.claude', 'agents', 'reader.md'),
    `---\nname: reader\ndescription: Reads one file and reports what it holds\ntools: Read, Bash\n---\n${READER}\n`,
  );
  return { home, workspace };
}

/** The main agent asks for three readers at once, then answers with their three answers in order; a reader does `child`. */
function responder(child: (prompt: string, results: Block[]) => FakeResponse) {
  return (body: Record<string, unknown>): FakeResponse => {
    const { system, messages } = body as Body;
    const last = blocks(messages.at(-1)).filter((b) => b.type === 'tool_result');
    if (JSON.stringify(system ?? '').includes('You are reader.')) return child(blocks(messages[0])[0]?.text ?? '', last);
    if (last.length === 0) {
      const task = (file: string) => ({
        type: 'tool_use' as const,
        id: `toolu_task_${file.replace('.', '_')}`,
        name: 'task',
        input: { description: `read ${file}`, prompt: `file: ${file}`, subagent_type: 'reader' },
      });
      return { content: [{ type: 'text', text: 'Three readers, at once.' }, task('a.txt'), task('b.txt'), task('c.txt')] };
    }
    return { text: last.map(resultText).join(' / ') };
  };
}

/** The live processes whose command line holds `marker`. */
function processesWith(marker: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  });
}

function sessionDirOf(home: string): string {
  const [id] = readdirSync(path.join(home, 'sessions'));
  return path.join(home, 'sessions', id!);
}

describe('subagents in the CLI', () => {
  it('a task that starts three subagents in one response ends final_answer with their answers in order, every request valid', async () => {
    const { home, workspace } = setup({ 'a.txt': 'apples', 'b.txt': 'bananas', 'c.txt': 'cherries' });
    fake = await startFakeAnthropic([], {
      respond: responder((prompt, results) => {
        if (results.length === 0) {
          const file = prompt.replace('file: ', '');
          return { content: [{ type: 'tool_use', id: `toolu_read_${file.replace('.', '_')}`, name: 'read_file', input: { path: file } }] };
        }
        return { text: `${prompt} holds ${resultText(results[0]!).trim().split('\n').at(-1)}` };
      }),
    });
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: home };
    const run = await runCli(['-p', 'read the three files', '--cwd', workspace, '--output-format', 'stream-json'], { env });
    expect(fake.rejected).toEqual([]);
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    const result = events.at(-1)!;
    expect(result).toMatchObject({ type: 'result', reason: 'final_answer', agent: 'main' });
    expect(String(result.result ?? result.text)).toMatch(
      /^file: a\.txt holds .*apples.* \/ file: b\.txt holds .*bananas.* \/ file: c\.txt holds .*cherries/,
    );
    // 1 + 3 x 2 + 1 requests: the main agent twice, each reader twice (read, answer).
    expect(fake.requests).toHaveLength(8);
    // Every event carries its agent; the children's events reach stream-json under their own path.
    expect(events.every((e) => typeof e.agent === 'string')).toBe(true);
    expect(new Set(events.map((e) => e.agent))).toEqual(new Set(['main', 'main/task-1', 'main/task-2', 'main/task-3']));
    // The three task calls ran together, as one batch of the main chart.
    expect(events.filter((e) => e.type === 'state' && e.name === 'execute_tool.batch' && e.agent === 'main')).toHaveLength(1);
    // The session's log holds every agent's lines; its transcript is the main conversation, valid.
    const dir = sessionDirOf(home);
    const log = readFileSync(path.join(dir, 'trace.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { agent?: string; event?: string });
    expect(log.every((l) => typeof l.agent === 'string')).toBe(true);
    expect(log.filter((l) => l.event === 'task_start').map((l) => l.agent)).toEqual(['main', 'main/task-1', 'main/task-2', 'main/task-3']);
    const transcript: Message[] = loadTranscript(dir).messages;
    expect(unpairedToolUses(transcript)).toEqual([]);
    expect(transcript).toHaveLength(4);
  });

  it("a subagent runs on the model its agent file names (Claude Code's aliases: haiku), the main agent on its own", async () => {
    const { home, workspace } = setup({ 'a.txt': 'apples', 'b.txt': 'bananas', 'c.txt': 'cherries' });
    writeFileSync(
      path.join(workspace, '.claude', 'agents', 'reader.md'),
      `---\nname: reader\ndescription: Reads one file\ntools: Read\nmodel: haiku\n---\n${READER}\n`,
    );
    fake = await startFakeAnthropic([], { respond: responder((prompt) => ({ text: `${prompt} seen` })) });
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: home };
    const run = await runCli(['-p', 'read the three files', '--cwd', workspace, '--model', 'claude-opus-5-5'], { env });
    expect(fake.rejected).toEqual([]);
    expect(run.code).toBe(0);
    const models = fake.requests.map((r) => {
      const body = r.body as Body & { model: string };
      return [JSON.stringify(body.system ?? '').includes('You are reader.') ? 'reader' : 'main', body.model];
    });
    expect(models.filter(([who]) => who === 'reader').map(([, model]) => model)).toEqual(Array(3).fill('claude-haiku-4-5'));
    expect(models.filter(([who]) => who === 'main').map(([, model]) => model)).toEqual(['claude-opus-5-5', 'claude-opus-5-5']);
  });

  it('Ctrl-C while three children run exits 130, the transcript valid and no process left', async () => {
    const marker = `xagent-subagent-${process.pid}-${Date.now()}`;
    const { home, workspace } = setup({});
    let started = 0;
    fake = await startFakeAnthropic([], {
      respond: responder((prompt, results) =>
        results.length === 0
          ? {
              content: [
                {
                  type: 'tool_use',
                  id: `toolu_sleep_${++started}`,
                  name: 'bash',
                  input: { command: `sleep 300; echo ${marker} ${prompt}` },
                },
              ],
            }
          : { text: 'slept' },
      ),
    });
    const env = { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, XAGENT_HOME: home };
    let sent = false;
    let seen = 0;
    const run = await runCli(['-p', 'wait three times', '--cwd', workspace, '--output-format', 'stream-json', '--allow', 'bash'], {
      env,
      onOutput: (child, output) => {
        const running = jsonLines(output.stdout).filter((e) => e.type === 'tool_start' && String(e.agent).startsWith('main/task-'));
        if (sent || running.length < 3) return;
        sent = true;
        // Interrupted once the three commands are running (their processes exist), not before.
        const poll = setInterval(() => {
          seen = processesWith(marker).length;
          if (seen < 3) return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 20);
        child.on('exit', () => clearInterval(poll));
      },
    });
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(run.code).toBe(130);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'result', reason: 'user_abort', agent: 'main' });
    expect(unpairedToolUses(loadTranscript(sessionDirOf(home)).messages)).toEqual([]);
    expect(fake.rejected).toEqual([]);
    // No sleep of any child is left: every process group was stopped before the CLI exited.
    expect(processesWith(marker)).toEqual([]);
  });
});
