import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

/**
 * Issue 31 H3 end to end: in acceptEdits the model writes .git/config with a core.fsmonitor
 * command (no bash permission needed); the next task start runs git. Nothing may run.
 */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'xagent-planted-cli-')));
  dirs.push(root);
  const workspace = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(workspace);
  mkdirSync(home);
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  return { root, workspace, home, marker: path.join(root, 'ran') };
}

describe('a .git/config planted with the file tools in acceptEdits (issue 31, H3)', () => {
  it('is not written without asking, and the next run starts git without running anything', async () => {
    const s = setup();
    const original = readFileSync(path.join(s.workspace, '.git', 'config'), 'utf8');
    const planted = `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${s.marker}; false"\n`;
    const script = path.join(s.root, 'plant.json');
    writeFileSync(
      script,
      JSON.stringify({
        responses: [
          { content: [{ type: 'tool_use', name: 'write_file', input: { path: '.git/config', content: planted } }] },
          { text: 'done' },
        ],
      }),
    );
    const first = await runCli(['-p', 'go', '--cwd', s.workspace, '--permission-mode', 'acceptEdits', '--model-script', script], {
      env: { XAGENT_HOME: s.home },
    });
    expect(first.stderr).toMatch(/protected path/);
    expect(readFileSync(path.join(s.workspace, '.git', 'config'), 'utf8')).toBe(original);

    // Even a config planted some other way (here: by hand) runs nothing at the next task start.
    writeFileSync(path.join(s.workspace, '.git', 'config'), planted);
    const answer = path.join(s.root, 'answer.json');
    writeFileSync(answer, JSON.stringify({ responses: [{ text: 'done' }] }));
    const second = await runCli(['-p', 'go', '--cwd', s.workspace, '--model-script', answer], { env: { XAGENT_HOME: s.home } });
    expect(second.code).toBe(0);
    expect(existsSync(s.marker)).toBe(false);
  });
});
