import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, realpathSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGitState } from '../../src/context/environment.js';
import { findGit } from '../../src/context/safe-git.js';
import { tempDir } from '../support/engine-harness.js';

/**
 * Issue 31 H3: xagent runs git itself at every task start, outside the sandbox and the permission
 * layer. Each case plants code where git would run it, then reads the git facts: nothing may run.
 * Every case first checks that plain git does run the planted code, so the test can fail.
 */

const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

function repo(): { root: string; marker: string; git: (...args: string[]) => void } {
  const root = realpathSync(tempDir('xagent-planted-'));
  const marker = path.join(realpathSync(tempDir('xagent-planted-marker-')), 'ran');
  const git = (...args: string[]) => {
    execFileSync(realGit, ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: root, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'trunk');
  writeFileSync(path.join(root, 'tracked.txt'), 'one\n');
  git('add', 'tracked.txt');
  git('commit', '-q', '-m', 'first');
  return { root, marker, git };
}

/** Makes tracked.txt stat-dirty with the same size, so status must hash it (and run its filter). */
function touchTracked(root: string): void {
  writeFileSync(path.join(root, 'tracked.txt'), 'two\n');
  utimesSync(path.join(root, 'tracked.txt'), new Date(), new Date(Date.now() + 5000));
}

/** Plain git status in `root`, as a user (or the old code) would run it. */
function plainStatus(root: string): void {
  try {
    execFileSync(realGit, ['status', '--short'], { cwd: root, stdio: 'ignore' });
  } catch {
    // the planted command may make git fail; whether it ran is what counts
  }
}

const config = (marker: string, extra = '') =>
  `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ${marker}; false"\n${extra}`;

describe("xagent's own git runs nothing the repository plants (issue 31, H3)", () => {
  it('core.fsmonitor in .git/config (written by the file tools in acceptEdits, say)', async () => {
    const { root, marker } = repo();
    writeFileSync(path.join(root, '.git', 'config'), config(marker));
    plainStatus(root);
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);

    expect(await readGitState(root)).toMatchObject({ root, branch: 'trunk' });
    expect(existsSync(marker)).toBe(false);
  });

  it('a clean filter named in .gitattributes and defined in .git/config', async () => {
    const { root, marker, git } = repo();
    git('config', 'filter.evil.clean', `touch ${marker}; cat`);
    writeFileSync(path.join(root, '.gitattributes'), 'tracked.txt filter=evil\n');
    touchTracked(root);
    plainStatus(root);
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);

    touchTracked(root);
    expect((await readGitState(root))?.status).toContain('tracked.txt');
    expect(existsSync(marker)).toBe(false);
  });

  it('a post-index-change hook, in .git/hooks or where core.hooksPath points', async () => {
    const { root, marker, git } = repo();
    const hooks = path.join(root, 'my-hooks');
    mkdirSync(hooks);
    writeFileSync(path.join(hooks, 'post-index-change'), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(path.join(hooks, 'post-index-change'), 0o755);
    git('config', 'core.hooksPath', hooks);
    touchTracked(root);
    plainStatus(root);
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);

    touchTracked(root);
    await readGitState(root);
    expect(existsSync(marker)).toBe(false);
  });

  it('.git/commondir pointing at a folder of the workspace with its own config', async () => {
    const { root, marker } = repo();
    const common = path.join(root, 'shared');
    renameSync(path.join(root, '.git'), common);
    mkdirSync(path.join(root, '.git'));
    writeFileSync(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/trunk\n');
    writeFileSync(path.join(root, '.git', 'commondir'), '../shared\n');
    writeFileSync(path.join(common, 'config'), config(marker));
    plainStatus(root);
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);

    await readGitState(root);
    expect(existsSync(marker)).toBe(false);
  });

  it('a .git that is a symlink, or a file, to a planted git folder in the workspace', async () => {
    for (const kind of ['symlink', 'gitfile'] as const) {
      const { root, marker } = repo();
      renameSync(path.join(root, '.git'), path.join(root, 'planted'));
      writeFileSync(path.join(root, 'planted', 'config'), config(marker));
      if (kind === 'symlink') symlinkSync('planted', path.join(root, '.git'));
      else writeFileSync(path.join(root, '.git'), 'gitdir: planted\n');
      plainStatus(root);
      expect(existsSync(marker), kind).toBe(true);
      execFileSync('rm', [marker]);

      expect(await readGitState(root), kind).toMatchObject({ branch: 'trunk' });
      expect(existsSync(marker), kind).toBe(false);
    }
  });

  it('a workspace that had no .git, made into a bare repository by files planted at its top', async () => {
    const { root, marker } = repo();
    const planted = realpathSync(tempDir('xagent-planted-bare-'));
    // A bare repository's layout at the workspace's top: git takes the folder itself as the git folder.
    execFileSync('cp', ['-r', `${path.join(root, '.git')}/.`, planted]);
    writeFileSync(path.join(planted, 'config'), config(marker, '[core]\n\tbare = false\n\tworktree = .\n'));
    execFileSync(realGit, ['status', '--short'], {
      cwd: planted,
      stdio: 'ignore',
      env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(planted) },
    });
    expect(existsSync(marker)).toBe(true);
    execFileSync('rm', [marker]);

    await readGitState(planted);
    expect(existsSync(marker)).toBe(false);
  });

  it('a git binary written into the workspace is never run, even with a relative PATH entry', () => {
    const root = realpathSync(tempDir('xagent-planted-bin-'));
    writeFileSync(path.join(root, 'git'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(root, 'git'), 0o755);
    expect(findGit(root, { PATH: `.:${root}:${path.dirname(realGit)}` })).toBe(realGit);
  });
});
