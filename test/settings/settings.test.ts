import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAllowRule, loadSettings, SettingsError } from '../../src/settings/settings.js';

let root: string;
let home: string;
let workspace: string;
const userFile = () => path.join(home, 'settings.json');
const projectFile = () => path.join(workspace, '.xagent', 'settings.json');
const localFile = () => path.join(workspace, '.xagent', 'settings.local.json');

async function write(file: string, content: unknown) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'xagent-settings-'));
  home = path.join(root, 'home');
  workspace = path.join(root, 'ws');
  await mkdir(workspace, { recursive: true });
});
afterEach(async () => rm(root, { recursive: true, force: true }));

describe('loadSettings', () => {
  it('is empty when no settings file exists', () => {
    expect(loadSettings({ workspace, home })).toEqual({
      rules: [],
      mode: undefined,
      modeSource: undefined,
      files: [],
      sandbox: [],
      mcpServers: [],
      modelPrices: [],
      limits: [],
      hooks: [],
      env: [],
      warnings: [],
    });
  });

  it('reads rules from the user file, the project file and the flags, each with its source', async () => {
    await write(userFile(), { permissions: { deny: ['bash(rm*)'] } });
    await write(projectFile(), { permissions: { allow: ['bash(npm test*)'], ask: ['bash(git push*)'] }, model: 'other keys are fine' });
    const { rules, files } = loadSettings({ workspace, home, allow: ['read_file'], deny: ['write_file(secrets/**)'] });
    expect(rules.map((r) => [r.behavior, r.text, r.source])).toEqual([
      ['allow', 'read_file', '--allow'],
      ['deny', 'write_file(secrets/**)', '--deny'],
      ['allow', 'bash(npm test*)', projectFile()],
      ['ask', 'bash(git push*)', projectFile()],
      ['deny', 'bash(rm*)', userFile()],
    ]);
    expect(files).toEqual([projectFile(), userFile()]);
  });

  it('takes permissionMode from the project file over the user file', async () => {
    await write(userFile(), { permissionMode: 'dontAsk' });
    expect(loadSettings({ workspace, home })).toMatchObject({ mode: 'dontAsk', modeSource: userFile() });
    await write(projectFile(), { permissionMode: 'acceptEdits' });
    expect(loadSettings({ workspace, home })).toMatchObject({ mode: 'acceptEdits', modeSource: projectFile() });
  });

  it('uses $XAGENT_HOME when no home is given', async () => {
    await write(userFile(), { permissions: { allow: ['grep'] } });
    const saved = process.env.XAGENT_HOME;
    process.env.XAGENT_HOME = home;
    try {
      expect(loadSettings({ workspace }).rules.map((r) => r.text)).toEqual(['grep']);
    } finally {
      if (saved === undefined) delete process.env.XAGENT_HOME;
      else process.env.XAGENT_HOME = saved;
    }
  });

  it.each([
    ['{ "permissions": ', 'not valid JSON'],
    ['', 'not valid JSON'],
    ['[]', 'expected a JSON object'],
    [{ permissions: [] }, '"permissions" must be an object'],
    [{ permissions: { allow: 'bash' } }, '"permissions.allow" must be a list'],
    [{ permissions: { allow: [42] } }, 'permissions.allow[0] must be a string'],
    [{ permissions: { deny: ['read_file', 'bash(rm'] } }, 'permissions.deny[1]: bad rule "bash(rm": missing ")"'],
    [{ permissions: { allowed: ['bash'] } }, 'unknown key "permissions.allowed"'],
    [{ permissionMode: 'yolo' }, '"permissionMode" must be one of'],
  ])('rejects a malformed project file (%j) naming the file and the problem', async (content, problem) => {
    await write(projectFile(), content);
    let error: unknown;
    try {
      loadSettings({ workspace, home });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).source).toBe(projectFile());
    expect((error as SettingsError).message).toContain(projectFile());
    expect((error as SettingsError).message).toContain(problem);
  });

  it('names the user file when that one is malformed', async () => {
    await write(userFile(), '{oops');
    expect(() => loadSettings({ workspace, home })).toThrow(`${userFile()}: not valid JSON`);
  });

  it('rejects a bad --allow or --deny rule naming the flag', () => {
    expect(() => loadSettings({ workspace, home, allow: ['BASH(ls)'] })).toThrow('--allow: bad rule "BASH(ls)"');
    expect(() => loadSettings({ workspace, home, deny: ['bash('] })).toThrow(SettingsError);
  });

  it('does not let a project file switch on bypassPermissions', async () => {
    await write(projectFile(), { permissionMode: 'bypassPermissions' });
    expect(() => loadSettings({ workspace, home })).toThrow('only accepted from the user settings');
    await rm(projectFile());
    await write(userFile(), { permissionMode: 'bypassPermissions' });
    expect(loadSettings({ workspace, home }).mode).toBe('bypassPermissions');
  });

  it("reads settings.local.json with the others; its mode beats the project's, and it may not bypass permissions", async () => {
    await write(projectFile(), { permissions: { allow: ['grep'] }, permissionMode: 'plan' });
    await write(localFile(), { permissions: { allow: ['bash(npm test*)'] }, permissionMode: 'acceptEdits' });
    const loaded = loadSettings({ workspace, home });
    expect(loaded.rules.map((r) => [r.text, r.source])).toEqual([
      ['bash(npm test*)', localFile()],
      ['grep', projectFile()],
    ]);
    expect(loaded).toMatchObject({ mode: 'acceptEdits', modeSource: localFile() });
    await write(localFile(), { permissionMode: 'bypassPermissions' });
    expect(() => loadSettings({ workspace, home })).toThrow('only accepted from the user settings');
  });

  it('reads a file that is both the user and the project settings once', async () => {
    await write(path.join(workspace, '.xagent', 'settings.json'), { permissions: { allow: ['grep'] } });
    const loaded = loadSettings({ workspace, home: path.join(workspace, '.xagent') });
    expect(loaded.rules).toHaveLength(1);
  });
});

describe('addAllowRule', () => {
  it('creates .xagent/settings.local.json when there is none', async () => {
    const file = addAllowRule(workspace, 'bash(npm test)');
    expect(file).toBe(localFile());
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ permissions: { allow: ['bash(npm test)'] } });
  });

  it('keeps everything else in the file and does not repeat a rule', async () => {
    await write(localFile(), { model: 'm', permissions: { allow: ['grep'], deny: ['bash(rm*)'] }, permissionMode: 'acceptEdits' });
    addAllowRule(workspace, ['bash(npm test)', 'grep']);
    addAllowRule(workspace, 'bash(npm test)');
    expect(JSON.parse(await readFile(localFile(), 'utf8'))).toEqual({
      model: 'm',
      permissions: { allow: ['grep', 'bash(npm test)'], deny: ['bash(rm*)'] },
      permissionMode: 'acceptEdits',
    });
    expect(await readdir(path.dirname(localFile()))).toEqual(['settings.local.json']);
  });

  it('leaves a malformed file untouched and says why', async () => {
    await write(localFile(), '{ broken');
    expect(() => addAllowRule(workspace, 'grep')).toThrow(`${localFile()}: not valid JSON`);
    expect(await readFile(localFile(), 'utf8')).toBe('{ broken');
  });

  it('refuses to save a bad rule', () => {
    expect(() => addAllowRule(workspace, 'bash(')).toThrow(SettingsError);
  });

  it('writes a file that loadSettings reads back', () => {
    addAllowRule(workspace, 'edit_file(src/a.ts)');
    expect(loadSettings({ workspace, home }).rules.map((r) => r.text)).toEqual(['edit_file(src/a.ts)']);
  });
});
