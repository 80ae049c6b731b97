import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, MAX_IMPORT_DEPTH } from '../../src/context/instruction-imports.js';
import { loadProjectInstructions } from '../../src/context/project-instructions.js';
import { tempDir } from '../support/engine-harness.js';

/** A git repository, a home with a secret in ~/.ssh, and the person's ~/.claude and $XAGENT_HOME. */
function place() {
  const root = realpathSync(tempDir('xagent-instr-'));
  const repo = path.join(root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  const userHome = path.join(root, 'home');
  mkdirSync(path.join(userHome, '.ssh'), { recursive: true });
  mkdirSync(path.join(userHome, '.claude'), { recursive: true });
  writeFileSync(path.join(userHome, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY----- secret');
  const xagentHome = path.join(root, 'xagent-home');
  mkdirSync(xagentHome);
  const load = () =>
    loadProjectInstructions({ workspace: repo, repoRoot: repo, home: xagentHome, claudeHome: path.join(userHome, '.claude') });
  return { root, repo, userHome, xagentHome, load };
}

describe('instruction files as Claude Code reads them', () => {
  it('reads .claude/CLAUDE.md, CLAUDE.local.md and ~/.claude/CLAUDE.md', () => {
    const { repo, userHome, load } = place();
    mkdirSync(path.join(repo, '.claude'));
    writeFileSync(path.join(repo, '.claude', 'CLAUDE.md'), 'project memory');
    writeFileSync(path.join(repo, 'CLAUDE.local.md'), 'my local notes');
    writeFileSync(path.join(userHome, '.claude', 'CLAUDE.md'), 'my preferences');
    expect(load().map((f) => f.text)).toEqual(['my preferences', 'project memory', 'my local notes']);
  });

  it('follows @path imports relative to the importing file, after it, each once, not inside code', () => {
    const { repo, load } = place();
    mkdirSync(path.join(repo, 'docs'));
    writeFileSync(path.join(repo, 'CLAUDE.md'), 'See @docs/style.md and @README.md.\n`@docs/not-this.md`\n```\n@docs/nor-this.md\n```');
    writeFileSync(path.join(repo, 'docs', 'style.md'), 'Tabs. Also @../README.md');
    writeFileSync(path.join(repo, 'README.md'), 'The readme.');
    writeFileSync(path.join(repo, 'docs', 'not-this.md'), 'no');
    writeFileSync(path.join(repo, 'docs', 'nor-this.md'), 'no');
    const files = load();
    expect(files.map((f) => [path.relative(repo, f.path), f.importedFrom ? path.relative(repo, f.importedFrom) : null])).toEqual([
      ['CLAUDE.md', null],
      ['docs/style.md', 'CLAUDE.md'],
      ['README.md', 'docs/style.md'],
    ]);
  });

  it(`stops following imports ${MAX_IMPORT_DEPTH} hops from the first file`, () => {
    const { repo, load } = place();
    writeFileSync(path.join(repo, 'AGENTS.md'), '@f1.md');
    for (let i = 1; i <= 8; i++) writeFileSync(path.join(repo, `f${i}.md`), `level ${i} @f${i + 1}.md`);
    expect(load().map((f) => path.basename(f.path))).toEqual(['AGENTS.md', 'f1.md', 'f2.md', 'f3.md', 'f4.md', 'f5.md']);
  });

  it('never reads a file whose real path is outside the project and your own folders: a symlink to ~/.ssh/id_rsa stays out', () => {
    const { repo, userHome, xagentHome, load } = place();
    symlinkSync(path.join(userHome, '.ssh', 'id_rsa'), path.join(repo, 'AGENTS.md'));
    mkdirSync(path.join(repo, '.claude'));
    symlinkSync(path.join(userHome, '.ssh', 'id_rsa'), path.join(repo, '.claude', 'CLAUDE.md'));
    writeFileSync(path.join(repo, 'CLAUDE.md'), `@~/.ssh/id_rsa @${path.join(userHome, '.ssh', 'id_rsa')} @../home/.ssh/id_rsa @notes.md`);
    symlinkSync(path.join(userHome, '.ssh', 'id_rsa'), path.join(repo, 'notes.md'));
    symlinkSync(path.join(userHome, '.ssh', 'id_rsa'), path.join(xagentHome, 'AGENTS.md'));
    const previousHome = process.env.HOME;
    process.env.HOME = userHome;
    try {
      const files = load();
      expect(files.map((f) => path.relative(repo, f.path))).toEqual(['CLAUDE.md']);
      expect(files.map((f) => f.text).join('\n')).not.toContain('PRIVATE KEY');
    } finally {
      process.env.HOME = previousHome;
    }
  });

  it('reads links that stay inside: a CLAUDE.md that links to AGENTS.md is read once', () => {
    const { repo, load } = place();
    writeFileSync(path.join(repo, 'AGENTS.md'), 'shared rules');
    symlinkSync('AGENTS.md', path.join(repo, 'CLAUDE.md'));
    expect(load().map((f) => f.text)).toEqual(['shared rules']);
  });

  it("reads a project's import from ~/.claude, your own folder, only once the project is trusted; your own file's import always", () => {
    const { repo, userHome, xagentHome } = place();
    writeFileSync(path.join(userHome, '.claude', 'prefs.md'), 'my prefs');
    writeFileSync(path.join(userHome, '.claude', 'settings.json'), '{"secret":1}');
    writeFileSync(path.join(repo, 'CLAUDE.md'), '@~/.claude/prefs.md');
    writeFileSync(path.join(xagentHome, 'AGENTS.md'), 'mine: @~/.claude/settings.json');
    const previousHome = process.env.HOME;
    process.env.HOME = userHome;
    const load = (outsideImports: boolean) => {
      const leftOut: string[] = [];
      const claudeHome = path.join(userHome, '.claude');
      const texts = loadProjectInstructions({
        workspace: repo,
        repoRoot: repo,
        home: xagentHome,
        claudeHome,
        outsideImports,
        onLeftOut: (file) => leftOut.push(file),
      }).map((f) => f.text);
      return { texts, leftOut };
    };
    try {
      expect(load(false)).toEqual({
        texts: ['mine: @~/.claude/settings.json', '{"secret":1}', '@~/.claude/prefs.md'],
        leftOut: [path.join(userHome, '.claude', 'prefs.md')],
      });
      expect(load(true).texts).toEqual(['mine: @~/.claude/settings.json', '{"secret":1}', '@~/.claude/prefs.md', 'my prefs']);
    } finally {
      process.env.HOME = previousHome;
    }
  });

  it('finds imports as Claude Code writes them', () => {
    expect(importsOf('a @x.md, b (@y/z.md) c@d.com @~/p.md `@no.md`', '/r', '/h')).toEqual(['/r/x.md', '/h/p.md']);
  });
});
