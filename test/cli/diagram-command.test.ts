import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';

const root = path.resolve(import.meta.dirname, '../..');

describe('xagent diagram', () => {
  it('prints the same Mermaid chart that is committed under machines/', async () => {
    const run = await runCli(['diagram', '--format', 'mermaid']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(readFileSync(path.join(root, 'machines/query-engine.mmd'), 'utf8'));
  });

  it('prints a standalone SVG with every state marked for the inspector', async () => {
    const run = await runCli(['diagram', '--format', 'svg']);
    expect(run.code).toBe(0);
    for (const state of [
      'build_context',
      'call_model',
      'validate_tool',
      'ask_permission',
      'execute_tool',
      'append_tool_result',
      'recover',
      'done',
    ]) {
      expect(run.stdout).toContain(`data-state="${state}"`);
    }
  });

  it('refuses an unknown format with exit 2', async () => {
    const run = await runCli(['diagram', '--format', 'png']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mermaid, svg, json');
  });
});
