import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addAllowRule } from '../../src/settings/settings.js';
import { tempDir } from '../support/engine-harness.js';

const gitRepo = () => {
  const workspace = tempDir('xagent-git-');
  mkdirSync(path.join(workspace, '.git'));
  return workspace;
};

describe('the personal settings file stays out of git', () => {
  it('the first "always" answer adds .xagent/settings.local.json to the project .gitignore, once', () => {
    const workspace = gitRepo();
    writeFileSync(path.join(workspace, '.gitignore'), 'node_modules');
    addAllowRule(workspace, 'bash(npm test*)');
    addAllowRule(workspace, 'bash(npm run lint*)');
    expect(readFileSync(path.join(workspace, '.gitignore'), 'utf8')).toBe(
      'node_modules\n# xagent: personal settings ("don\'t ask again" answers)\n.xagent/settings.local.json\n',
    );
  });

  it('creates the .gitignore when there is none, and leaves one that already covers .xagent/ alone', () => {
    const bare = gitRepo();
    addAllowRule(bare, 'read_file');
    expect(readFileSync(path.join(bare, '.gitignore'), 'utf8')).toContain('.xagent/settings.local.json\n');
    const covered = gitRepo();
    writeFileSync(path.join(covered, '.gitignore'), '.xagent/\n');
    addAllowRule(covered, 'read_file');
    expect(readFileSync(path.join(covered, '.gitignore'), 'utf8')).toBe('.xagent/\n');
  });
});
