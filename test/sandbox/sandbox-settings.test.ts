import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../src/settings/settings.js';
import { parseSandboxLayer, resolveSandboxSettings, SandboxSettingsError, type SandboxLayer } from '../../src/sandbox/sandbox-settings.js';

const user = (fields: Partial<SandboxLayer>): SandboxLayer => ({ source: 'user', trusted: true, ...fields });
const project = (fields: Partial<SandboxLayer>): SandboxLayer => ({ source: 'project', trusted: false, ...fields });

describe('parseSandboxLayer', () => {
  it('reads every key', () => {
    expect(
      parseSandboxLayer({ enabled: true, network: true, hide: ['~/.config/gh', '/srv/keys'], hooks: false, mcpServers: false }, 'u', true),
    ).toEqual({
      source: 'u',
      trusted: true,
      enabled: true,
      network: true,
      hide: ['~/.config/gh', '/srv/keys'],
      hooks: false,
      mcpServers: false,
    });
  });

  it.each([
    [[], '"sandbox" must be an object'],
    [{ enabled: 'yes' }, '"sandbox.enabled" must be true or false, got "yes"'],
    [{ netwrok: false }, 'unknown key "sandbox.netwrok"'],
    [{ hide: 'secrets' }, '"sandbox.hide" must be a list'],
    [{ hide: ['relative/dir'] }, 'neither absolute nor ~/'],
  ])('refuses %j with a message naming the key', (value, message) => {
    expect(() => parseSandboxLayer(value, 'f', true)).toThrow(SandboxSettingsError);
    expect(() => parseSandboxLayer(value, 'f', true)).toThrow(message);
  });

  it.each([{ network: true }, { hooks: false }, { mcpServers: false }])(
    'refuses %j from a project file: it widens the sandbox',
    (value) => {
      expect(() => parseSandboxLayer(value, 'p', false)).toThrow('only accepted from the user settings');
      expect(parseSandboxLayer(value, 'u', true)).toMatchObject(value);
    },
  );

  it('lets a project file switch the sandbox on, keep the network off and hide more', () => {
    expect(parseSandboxLayer({ enabled: true, network: false, hide: ['~/.config/gh'] }, 'p', false)).toMatchObject({
      enabled: true,
      network: false,
    });
  });
});

describe('resolveSandboxSettings', () => {
  it('is off, with no network, hooks and MCP servers sandboxed, when nothing says otherwise', () => {
    expect(resolveSandboxSettings([], undefined)).toEqual({ enabled: false, network: false, hide: [], hooks: true, mcpServers: true });
  });

  it('--sandbox and --no-sandbox beat every file', () => {
    expect(resolveSandboxSettings([], true).enabled).toBe(true);
    expect(resolveSandboxSettings([user({ enabled: true })], false).enabled).toBe(false);
  });

  it("is on when any file enables it: a project file cannot switch off the user's sandbox", () => {
    expect(resolveSandboxSettings([project({ enabled: false }), user({ enabled: true })], undefined).enabled).toBe(true);
    expect(resolveSandboxSettings([project({ enabled: true }), user({})], undefined).enabled).toBe(true);
  });

  it('takes the network switch from the most specific file that sets it, and adds up hide lists', () => {
    const settings = resolveSandboxSettings([project({ network: false, hide: ['/a'] }), user({ network: true, hide: ['/a', '/b'] })], true);
    expect(settings.network).toBe(false);
    expect(settings.hide).toEqual(['/a', '/b']);
    expect(resolveSandboxSettings([user({ network: true })], true).network).toBe(true);
  });
});

describe('loadSettings and the sandbox key', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'xagent-sandbox-settings-'));
    await mkdir(path.join(root, 'ws', '.xagent'), { recursive: true });
    await mkdir(path.join(root, 'home'), { recursive: true });
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  it("returns each file's layer, the project's first and marked untrusted", async () => {
    await writeFile(path.join(root, 'home', 'settings.json'), JSON.stringify({ sandbox: { network: true } }));
    await writeFile(path.join(root, 'ws', '.xagent', 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }));
    const { sandbox } = loadSettings({ workspace: path.join(root, 'ws'), home: path.join(root, 'home') });
    expect(sandbox).toEqual([
      { source: path.join(root, 'ws', '.xagent', 'settings.json'), trusted: false, enabled: true },
      { source: path.join(root, 'home', 'settings.json'), trusted: true, network: true },
    ]);
  });

  it('names the project file that tries to open the network', async () => {
    const file = path.join(root, 'ws', '.xagent', 'settings.json');
    await writeFile(file, JSON.stringify({ sandbox: { enabled: true, network: true } }));
    const load = () => loadSettings({ workspace: path.join(root, 'ws'), home: path.join(root, 'home') });
    expect(load).toThrow(SettingsError);
    expect(load).toThrow(`${file}: "sandbox.network": true widens the sandbox`);
  });
});
