import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInWorkspace } from '../../src/tools/workspace.js';
import { run, tempDir, writeTree } from './helpers.js';

describe('workspace confinement', () => {
  it('resolves a relative path inside the workspace', async () => {
    const ws = await tempDir();
    const r = await resolveInWorkspace(ws, 'src/../a.txt');
    expect(r).toEqual({ ok: true, absolute: path.join(ws, 'a.txt'), display: 'a.txt', exists: false });
  });

  it('refuses a ../ escape in every file tool', async () => {
    const ws = await tempDir();
    const calls: [string, object][] = [
      ['read_file', { path: '../outside.txt' }],
      ['write_file', { path: '../outside.txt', content: 'x' }],
      ['edit_file', { path: '../outside.txt', old_string: 'a', new_string: 'b' }],
      ['list_dir', { path: '..' }],
      ['glob', { pattern: '*', path: '..' }],
      ['grep', { pattern: 'x', path: '..' }],
    ];
    for (const [name, input] of calls) {
      const result = await run(name, input, { workspace: ws });
      expect(result.isError, name).toBe(true);
      expect(result.content, name).toContain('outside the workspace');
    }
  });

  it('refuses an absolute path outside the workspace', async () => {
    const ws = await tempDir();
    const result = await run('read_file', { path: '/etc/hostname' }, { workspace: ws });
    expect(result).toEqual({ isError: true, content: expect.stringContaining('is outside the workspace') });
  });

  it('accepts an absolute path inside the workspace', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'a.txt': 'hello\n' });
    const result = await run('read_file', { path: path.join(ws, 'a.txt') }, { workspace: ws });
    expect(result).toEqual({ isError: false, content: '     1\thello' });
  });

  it('refuses reading through a symlink to /etc', async () => {
    const ws = await tempDir();
    await symlink('/etc/passwd', path.join(ws, 'passwd'));
    const result = await run('read_file', { path: 'passwd' }, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('resolves through a symbolic link to /etc/passwd');
    expect(result.content).not.toContain('root:');
  });

  it('refuses writing into a symlinked parent folder that points outside', async () => {
    const ws = await tempDir();
    const outside = await tempDir('xagent-outside-');
    await symlink(outside, path.join(ws, 'linked'));
    const write = await run('write_file', { path: 'linked/new/file.txt', content: 'x' }, { workspace: ws });
    expect(write.isError).toBe(true);
    expect(write.content).toContain('outside the workspace');
    await expect(readFile(path.join(outside, 'new/file.txt'))).rejects.toThrow();
  });

  it('refuses editing a file below a symlinked parent folder that points outside', async () => {
    const ws = await tempDir();
    const outside = await tempDir('xagent-outside-');
    await writeFile(path.join(outside, 'secret.txt'), 'keep me');
    await symlink(outside, path.join(ws, 'linked'));
    const edit = await run('edit_file', { path: 'linked/secret.txt', old_string: 'keep', new_string: 'lose' }, { workspace: ws });
    expect(edit.isError).toBe(true);
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('keep me');
  });

  it('refuses a dangling symlink, since writing through it could land anywhere', async () => {
    const ws = await tempDir();
    const outside = await tempDir('xagent-outside-');
    await symlink(path.join(outside, 'not-yet.txt'), path.join(ws, 'dangling'));
    const result = await run('write_file', { path: 'dangling', content: 'x' }, { workspace: ws });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('symbolic link whose target does not exist');
    await expect(readFile(path.join(outside, 'not-yet.txt'))).rejects.toThrow();
  });

  it('follows a symlink whose target stays inside the workspace', async () => {
    const ws = await tempDir();
    await writeTree(ws, { 'real/a.txt': 'inside\n' });
    await mkdir(path.join(ws, 'links'));
    await symlink(path.join(ws, 'real'), path.join(ws, 'links/alias'));
    const result = await run('read_file', { path: 'links/alias/a.txt' }, { workspace: ws });
    expect(result).toEqual({ isError: false, content: '     1\tinside' });
  });

  it('resolves a workspace given through a symlink to its real path', async () => {
    const real = await tempDir();
    const holder = await tempDir();
    await symlink(real, path.join(holder, 'ws'));
    await writeTree(real, { 'a.txt': 'x\n' });
    const r = await resolveInWorkspace(path.join(holder, 'ws'), 'a.txt');
    expect(r).toMatchObject({ ok: true, absolute: path.join(real, 'a.txt'), exists: true });
  });
});
