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

  it('prints a standalone SVG with every state, nested ones inside their parent, marked for the inspector', async () => {
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
    expect(run.stdout).toContain('data-state="ask_permission.asking_user" data-parent="ask_permission"');
  });

  it('prints JSON with every state, nested ones included, and every transition with id, from, to, event and guard', async () => {
    const run = await runCli(['diagram', '--format', 'json']);
    expect(run.code).toBe(0);
    const graph = JSON.parse(run.stdout) as {
      fingerprint: string;
      nodes: Array<{ id: string; parent?: string }>;
      edges: Array<{ id: string; from: string; to: string; event: string; guard?: string }>;
    };
    expect(graph.nodes.filter((n) => n.parent === 'call_model').map((n) => n.id)).toEqual([
      'call_model.checking_limits',
      'call_model.requesting',
      'call_model.stop_hooks',
    ]);
    expect(graph.edges).toContainEqual(
      expect.objectContaining({
        id: 'ask_permission.deciding:always[permissionAllowed]>execute_tool',
        from: 'ask_permission.deciding',
        to: 'execute_tool',
        event: '',
        guard: 'permissionAllowed',
      }),
    );
    for (const edge of graph.edges) expect(Object.keys(edge)).toEqual(expect.arrayContaining(['id', 'from', 'to', 'event']));
    expect(graph.fingerprint).toMatch(/^[0-9a-f]+$/);
  });

  it('refuses an unknown format with exit 2', async () => {
    const run = await runCli(['diagram', '--format', 'gif']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mermaid, svg, json, markdown, png, pdf');
  });
});
