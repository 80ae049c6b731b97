import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGE_FILE_CHARS, loadProjectInstructions, MAX_TOTAL_CHARS } from '../../src/context/project-instructions.js';
import { loadTaskContext } from '../../src/context/task-context.js';
import { tempDir } from '../support/engine-harness.js';

function repo(): { root: string; pkg: string; home: string } {
  const root = realpathSync(tempDir('xagent-repo-'));
  execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: root });
  const pkg = path.join(root, 'packages', 'app');
  mkdirSync(pkg, { recursive: true });
  const home = tempDir('xagent-home-');
  return { root, pkg, home };
}

describe('project instructions', () => {
  it('loads $XAGENT_HOME/AGENTS.md, then AGENTS.md and CLAUDE.md from the repository root down to the workspace', () => {
    const { root, pkg, home } = repo();
    writeFileSync(path.join(home, 'AGENTS.md'), 'home rule');
    writeFileSync(path.join(root, 'AGENTS.md'), 'root rule');
    writeFileSync(path.join(pkg, 'CLAUDE.md'), 'package rule');
    writeFileSync(path.join(path.dirname(root), 'AGENTS.md.not-ours'), 'x');
    const files = loadProjectInstructions({ workspace: pkg, repoRoot: root, home });
    expect(files.map((f) => f.path)).toEqual([path.join(home, 'AGENTS.md'), path.join(root, 'AGENTS.md'), path.join(pkg, 'CLAUDE.md')]);
  });

  it('reads a file over 20,000 characters whole, as Claude Code does, marking one over 40,000 as large', () => {
    const { root } = repo();
    writeFileSync(path.join(root, 'AGENTS.md'), 'y'.repeat(30_000));
    writeFileSync(path.join(root, 'CLAUDE.md'), 'z'.repeat(LARGE_FILE_CHARS + 1));
    const [agents, claude] = loadProjectInstructions({ workspace: root, repoRoot: root, home: null, claudeHome: null });
    expect(agents).toMatchObject({ truncated: false });
    expect(agents!.text).toHaveLength(30_000);
    expect(agents!.large).toBeUndefined();
    expect(claude).toMatchObject({ truncated: false, large: true });
  });

  it('caps all the files together and says where it cut', () => {
    const { root } = repo();
    writeFileSync(path.join(root, 'AGENTS.md'), 'y'.repeat(MAX_TOTAL_CHARS * 2));
    const [file] = loadProjectInstructions({ workspace: root, repoRoot: root, home: null, claudeHome: null });
    expect(file!.truncated).toBe(true);
    expect(file!.text).toMatch(/cut: the file has 240000 characters/);
  });

  it('outside git, reads only the workspace itself', () => {
    const dir = realpathSync(tempDir('xagent-plain-'));
    const inner = path.join(dir, 'inner');
    mkdirSync(inner);
    writeFileSync(path.join(dir, 'AGENTS.md'), 'parent');
    writeFileSync(path.join(inner, 'AGENTS.md'), 'inner');
    expect(loadProjectInstructions({ workspace: inner, repoRoot: null, home: null }).map((f) => f.text)).toEqual(['inner']);
  });
});

describe('system prompt', () => {
  it('has the tool guidance, the environment, the git branch and status, and the AGENTS.md content', async () => {
    const { root, pkg, home } = repo();
    writeFileSync(path.join(root, 'AGENTS.md'), 'Always run npm test before answering.');
    writeFileSync(path.join(pkg, 'new.txt'), 'x');
    const { system, instructions } = await loadTaskContext({ workspace: pkg, home, now: new Date('2026-12-01T06:30:00Z') });
    expect(system).toContain('Always run npm test before answering.');
    expect(system).toMatch(/read_file\) before you change it/);
    expect(system).toContain(`Workspace root: ${pkg}`);
    expect(system).toContain("Today's date: 2026-12-01");
    expect(system).toContain('branch trunk');
    expect(system).toMatch(/git status --short at the start of the task:\n\?\? /);
    expect(system).toContain(`Platform: ${process.platform}`);
    expect(instructions.map((f) => f.path)).toEqual([path.join(root, 'AGENTS.md')]);
  });

  it('is the same bytes at another hour of the same day, so it stays cached', async () => {
    const { pkg, home } = repo();
    const a = (await loadTaskContext({ workspace: pkg, home, now: new Date('2026-12-01T06:00:00Z') })).system;
    const b = (await loadTaskContext({ workspace: pkg, home, now: new Date('2026-12-01T23:59:00Z') })).system;
    expect(a).toBe(b);
  });

  it('says so outside a git repository', async () => {
    const dir = realpathSync(tempDir('xagent-plain-'));
    expect((await loadTaskContext({ workspace: dir, home: null })).system).toContain('Not a git repository.');
  });
});
