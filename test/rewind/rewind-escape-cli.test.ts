import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';
import { PERMISSIVE, snapshot } from './scenario.js';

/**
 * Issue 38: a rewind follows no link out of the workspace. After xagent changed files in `conf/`,
 * the folder is replaced by a symbolic link to a folder outside (as sandboxed bash or a checkout
 * can do): the rewind would overwrite the outside `.bashrc`, create a file there and delete one.
 */

beforeAll(assertBuilt);
const api = useFakeApi();

const use = (name: string, input: Record<string, unknown>): FakeResponse => ({ content: [{ type: 'tool_use', name, input }] });
const TASKS: FakeResponse[] = [
  { text: 'Looked.' },
  use('write_file', { path: 'conf/.bashrc', content: 'xagent wrote this\n' }),
  use('write_file', { path: 'conf/made.txt', content: 'made by xagent\n' }),
  use('edit_file', { path: 'conf/gone.txt', old_string: 'here', new_string: 'edited' }),
  { text: 'Changed conf.' },
];

/** Two tasks in one session: the first only looks, the second changes three files in conf/. */
async function twoTasks(env: Record<string, string>): Promise<string> {
  mkdirSync(path.join(api.workspace, 'conf'));
  writeFileSync(path.join(api.workspace, 'conf/.bashrc'), 'inside original\n');
  writeFileSync(path.join(api.workspace, 'conf/gone.txt'), 'here\n');
  let id = '';
  for (const prompt of ['look around', 'change conf']) {
    const run = await runCli(['-p', prompt, ...PERMISSIVE, ...(id ? ['--resume', id] : [])], { env, cwd: api.workspace });
    expect(run.code, run.stderr).toBe(0);
    id = (JSON.parse(run.stdout) as { session_id: string }).session_id;
  }
  return id;
}

/** A folder outside the workspace holding what the link will expose: a .bashrc, a file the rewind would delete. */
function outsideFolder(): string {
  const outside = tempDir('xagent-outside-');
  writeFileSync(path.join(outside, '.bashrc'), 'the person own bashrc\n');
  writeFileSync(path.join(outside, 'made.txt'), 'an outside file\n');
  writeFileSync(path.join(outside, 'gone.txt'), 'edited\n');
  return outside;
}

describe('issue 38: rewind never writes or deletes outside the workspace', () => {
  it('refuses (exit 2, naming the link) when a folder it changed became a link to outside, and changes nothing there; restored, the same rewind works', async () => {
    const env = await api.start(TASKS);
    const id = await twoTasks(env);
    const outside = outsideFolder();
    const before = snapshot(outside);
    renameSync(path.join(api.workspace, 'conf'), path.join(api.workspace, 'conf.real'));
    symlinkSync(outside, path.join(api.workspace, 'conf'));

    const refused = await runCli(['rewind', id, '--to', '2'], { env, cwd: api.workspace });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('never writes outside the workspace');
    expect(refused.stderr).toContain('now leads through a symbolic link');
    expect(snapshot(outside)).toEqual(before);
    expect(readdirSync(outside).sort()).toEqual(['.bashrc', 'gone.txt', 'made.txt']);

    // Control: the folder back as it was, the same rewind restores and deletes inside.
    rmSync(path.join(api.workspace, 'conf'));
    renameSync(path.join(api.workspace, 'conf.real'), path.join(api.workspace, 'conf'));
    const rewound = await runCli(['rewind', id, '--to', '2'], { env, cwd: api.workspace });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(readFileSync(path.join(api.workspace, 'conf/.bashrc'), 'utf8')).toBe('inside original\n');
    expect(readFileSync(path.join(api.workspace, 'conf/gone.txt'), 'utf8')).toBe('here\n');
    expect(existsSync(path.join(api.workspace, 'conf/made.txt'))).toBe(false);
    expect(snapshot(outside)).toEqual(before);
  });

  it('refuses a crafted checkpoint log (a path with ../ or a blob name with ../) on read, and writes nothing', async () => {
    const env = await api.start(TASKS);
    const id = await twoTasks(env);
    const log = path.join(api.home, 'sessions', id, 'checkpoints', 'log.jsonl');
    const pristine = readFileSync(log, 'utf8');
    const outside = outsideFolder();
    const before = snapshot(outside);
    const lines = pristine
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const first = lines[0] as { file: string; before: { sha256?: string } };
    const escapes = path.join(path.relative(path.dirname(first.file), outside), '.bashrc');
    const crafted = [
      { ...first, file: `${path.dirname(first.file)}/${escapes}` },
      { ...first, before: { ...first.before, sha256: '../../../../outside' } },
    ];
    for (const line of crafted) {
      writeFileSync(log, `${pristine}${JSON.stringify(line)}\n`);
      const refused = await runCli(['rewind', id, '--to', '2'], { env, cwd: api.workspace });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(
        /checkpoint log is refused: line 4 names (a path with "\.\."|a path that is not absolute and normalised|a blob that is not a SHA-256)/,
      );
      expect(snapshot(outside)).toEqual(before);
      const list = await runCli(['rewind', id, '--list'], { env, cwd: api.workspace });
      expect(list.code).toBe(2);
    }
    // Control: the log as xagent wrote it is followed.
    writeFileSync(log, pristine);
    appendFileSync(log, '{"v":1,"kind":"change","torn');
    const rewound = await runCli(['rewind', id, '--to', '2'], { env, cwd: api.workspace });
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(readFileSync(path.join(api.workspace, 'conf/.bashrc'), 'utf8')).toBe('inside original\n');
    expect(snapshot(outside)).toEqual(before);
  });
});
