import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/settings/settings.js';
import { tempDir } from '../support/engine-harness.js';
import { jsonLines, runCli } from '../support/run-cli.js';

/**
 * Every file of ../shared/real-configs (Claude Code configuration from public repositories, see
 * its README), put where Claude Code reads it, must start a task in xagent; the few that are
 * genuinely invalid are refused with exit 2, naming the file and the problem. The hook commands and
 * MCP servers they name are other people's programs: PATH is an empty folder and HOME a temporary
 * one, so none of them can start (a hook that cannot start is reported and has no say).
 */
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CONFIGS = path.resolve(REPO_ROOT, '..', 'shared', 'real-configs');
const present = existsSync(path.join(CONFIGS, 'index.tsv'));

/** Where Claude Code reads each kind of file. */
const PLACE: Record<string, string> = {
  settings: '.claude/settings.json',
  'settings.local': '.claude/settings.local.json',
  mcp: '.mcp.json',
  'hooks-snippet': '.claude/settings.json',
};

/** Refused on purpose: the file, and what the refusal must say. Empty: xagent takes every file. */
const GENUINELY_INVALID: Record<string, string> = {};

function index(): Array<{ file: string; kind: string }> {
  if (!present) return [];
  return readFileSync(path.join(CONFIGS, 'index.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [file, , kind] = line.split('\t');
      return { file: file!, kind: kind! };
    });
}

describe.skipIf(!present)('real Claude Code configuration files', () => {
  const files = index();

  it('the index lists every file of the folder, 54 of them', () => {
    const onDisk = readdirSync(CONFIGS).filter((name) => name.endsWith('.json'));
    expect(files.map((f) => f.file).sort()).toEqual(onDisk.sort());
    expect(files).toHaveLength(54);
  });

  it('reads all 1,320 permission rules of the settings files, none refused', () => {
    let count = 0;
    for (const { file, kind } of files.filter((f) => f.kind !== 'mcp')) {
      const root = tempDir('xagent-real-rules-');
      const place = path.join(root, 'ws', PLACE[kind]!);
      mkdirSync(path.dirname(place), { recursive: true });
      copyFileSync(path.join(CONFIGS, file), place);
      const loaded = loadSettings({
        workspace: path.join(root, 'ws'),
        home: path.join(root, 'xhome'),
        claudeHome: path.join(root, 'home', '.claude'),
      });
      count += loaded.rules.length;
    }
    expect(count).toBe(1320);
  });

  it.each(files)('$file ($kind) starts a task from where Claude Code reads it', async ({ file, kind }) => {
    const root = tempDir('xagent-real-config-');
    const workspace = path.join(root, 'ws');
    const place = path.join(workspace, PLACE[kind]!);
    mkdirSync(path.dirname(place), { recursive: true });
    copyFileSync(path.join(CONFIGS, file), place);
    mkdirSync(path.join(root, 'empty-path'));
    mkdirSync(path.join(root, 'home'));
    const script = path.join(root, 'script.json');
    writeFileSync(script, JSON.stringify({ responses: [{ text: 'started' }] }));
    const run = await runCli(['-p', 'hello', '--cwd', workspace, '--output-format', 'json', '--model-script', script], {
      env: { PATH: path.join(root, 'empty-path'), HOME: path.join(root, 'home'), XAGENT_HOME: path.join(root, 'xhome'), MCP_TIMEOUT: '3s' },
    });
    const refusal = GENUINELY_INVALID[file];
    if (refusal !== undefined) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(place);
      expect(run.stderr).toContain(refusal);
      return;
    }
    // Warnings, and servers or hooks that cannot start (PATH is empty), are fine; a refusal is not.
    const refusals = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('xagent:') && !/^xagent: (warning: |MCP server |hook )/.test(line));
    expect(refusals).toEqual([]);
    expect(run.code).toBe(0);
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ reason: 'final_answer', result: 'started', is_error: false });
  });
});

describe.skipIf(present)('real Claude Code configuration files (absent)', () => {
  it(`are not here: ${CONFIGS} is missing, so these checks are skipped`, () => {
    expect(present).toBe(false);
  });
});
