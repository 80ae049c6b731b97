import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadAgents } from '../../src/agents/load-agents.js';
import { parseAgentFile } from '../../src/agents/parse-agent-file.js';
import { tempDir } from '../support/engine-harness.js';
import { runCli } from '../support/run-cli.js';

/** Real agent files from public repositories (test/fixtures/real-agents/SOURCE.md says whose). */
const REAL = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/real-agents');

function workspaceWithRealAgents(): string {
  const workspace = tempDir();
  cpSync(path.join(REAL, '.claude'), path.join(workspace, '.claude'), { recursive: true });
  return workspace;
}

describe('agent files', () => {
  it('loads the real agent files of a public repository and names the malformed one without blocking the others', () => {
    const workspace = workspaceWithRealAgents();
    const { agents, problems } = loadAgents({ workspace, home: null });
    expect(agents.map((a) => a.name)).toEqual(['general-purpose', 'repo-explorer', 'test-runner']);
    const explorer = agents.find((a) => a.name === 'repo-explorer')!;
    expect(explorer).toMatchObject({ tools: null, model: 'haiku', permissionMode: 'plan' });
    expect(explorer.prompt).toMatch(/^You are Repo Explorer/);
    expect(agents.find((a) => a.name === 'test-runner')!.tools).toEqual(['bash', 'read_file', 'grep', 'glob']);
    expect(problems).toEqual([
      {
        file: path.join(workspace, '.claude', 'agents', 'code-reviewer.md'),
        problem: 'no YAML frontmatter: the file must start with a line "---", the fields, and another "---"',
      },
    ]);
  });

  it('takes tools as a comma-separated string or a list, in Claude Code or xagent names', () => {
    const parse = (tools: string) => parseAgentFile(`---\nname: a\ndescription: d\ntools: ${tools}\n---\nbody`, 'a.md');
    expect(parse('Read, Grep, LS, mcp__docs__search')).toMatchObject({
      agent: { tools: ['read_file', 'grep', 'list_dir', 'mcp__docs__search'] },
    });
    expect(parse('["read", "write_file"]')).toMatchObject({ agent: { tools: ['read_file', 'write_file'] } });
    expect(parse('{ a: 1 }')).toEqual({ problem: '"tools" must be a comma-separated string or a list of names' });
  });

  it('names each kind of malformed file: bad YAML, no name, no description', () => {
    expect(parseAgentFile('---\nname: [unclosed\n---\nx', 'f.md')).toMatchObject({
      problem: expect.stringMatching(/^the frontmatter is not valid YAML/),
    });
    expect(parseAgentFile('---\ndescription: d\n---\nx', 'f.md')).toEqual({ problem: 'the frontmatter has no "name"' });
    expect(parseAgentFile('---\nname: n\n---\nx', 'f.md')).toEqual({ problem: 'the frontmatter has no "description"' });
  });

  it("lets the project's agent win over the user's of the same name, and .xagent over .claude", () => {
    const workspace = tempDir();
    const home = tempDir();
    const write = (dir: string, body: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'scout.md'), `---\nname: scout\ndescription: ${body}\n---\n${body}`);
    };
    write(path.join(home, 'agents'), 'the user');
    write(path.join(workspace, '.claude', 'agents'), 'claude');
    expect(loadAgents({ workspace, home }).agents.find((a) => a.name === 'scout')!.prompt).toBe('claude');
    write(path.join(workspace, '.xagent', 'agents'), 'xagent');
    expect(loadAgents({ workspace, home }).agents.find((a) => a.name === 'scout')!.prompt).toBe('xagent');
  });

  it('xagent agents --json prints the agents (name, source, tools, model) and the problems', async () => {
    const workspace = workspaceWithRealAgents();
    const run = await runCli(['agents', '--json', '--cwd', workspace], { env: { XAGENT_HOME: tempDir() } });
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as { agents: Array<Record<string, unknown>>; problems: Array<{ file: string }> };
    expect(listed.agents.map((a) => [a.name, a.source, a.tools, a.model])).toEqual([
      ['general-purpose', 'built-in', null, null],
      ['repo-explorer', path.join(workspace, '.claude', 'agents', 'repo-explorer.md'), null, 'haiku'],
      ['test-runner', path.join(workspace, '.claude', 'agents', 'test-runner.md'), ['bash', 'read_file', 'grep', 'glob'], 'haiku'],
    ]);
    expect(listed.problems.map((p) => path.basename(p.file))).toEqual(['code-reviewer.md']);
    const text = await runCli(['agents', '--cwd', workspace], { env: { XAGENT_HOME: tempDir() } });
    expect(text.stdout).toContain('code-reviewer.md: no YAML frontmatter');
    expect(text.stdout).toContain('test-runner  (');
  });
});
