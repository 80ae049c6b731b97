import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../src/diagram/chart-graph.js';
import { generatePaths } from '../../src/paths/generate-paths.js';
import { pathName } from '../paths/replay.js';
import { runCli } from '../support/run-cli.js';

interface JsonReport {
  paths: Array<{ name: string; transitions: string[]; stopReason: string | null }>;
  coverage: Array<{ what: string; covered: number; total: number }>;
  transitions: Array<{ id: string; paths: number }>;
}

describe('xagent paths', () => {
  it('lists exactly the paths the test suite replays, each with the transitions it takes, and full coverage', async () => {
    const run = await runCli(['paths', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    const suite = generatePaths().map(pathName).sort();
    expect(report.paths.map((p) => p.name).sort()).toEqual(suite);
    expect(report.coverage.map((row) => [row.what, row.covered === row.total])).toEqual([
      ['states', true],
      ['transitions', true],
      ['guard outcomes', true],
      ['stop reasons', true],
      ['event variants', true],
    ]);
    expect(report.transitions.every((t) => t.paths > 0)).toBe(true);
    const denied = report.paths.find((p) => p.name === 'session-start-context > prompt-hook-ok > call-deny');
    const graph = chartGraph(queryEngine);
    const label = (id: string) => {
      const e = graph.edges.find((edge) => edge.id === id)!;
      return `${e.from} -> ${e.to}${e.guard ? ` [${e.guard}]` : ''}`;
    };
    expect(denied?.stopReason).toBe('permission_denied');
    // Every event has hooks in the path model: SessionStart, then UserPromptSubmit, then the prompt goes out.
    expect(denied?.transitions.map(label)).toEqual([
      'build_context -> build_context [sessionStartDue]',
      'build_context -> build_context [childRunning]',
      'build_context -> build_context',
      'build_context -> build_context [userPromptSubmitDue]',
      'build_context -> build_context [childRunning]',
      'build_context -> build_context',
      'build_context -> build_context [promptUnsent]',
      'build_context -> call_model [contextFits]',
      'call_model -> validate_tool [responseHasToolCalls]',
      'validate_tool -> ask_permission',
      'ask_permission -> done [permissionDenied]',
    ]);
  }, 30_000);

  it('prints Markdown by default: the coverage table, every transition and every path', async () => {
    const run = await runCli(['paths']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\| transitions \| (\d+) \/ \1 \| 100\.0 % \|$/m);
    expect(run.stdout).toMatch(/^\| `validate_tool --always \[callInvalid\]--> recover` \| `validate_tool:always:\d` \| \d+ \|$/m);
    expect(run.stdout.match(/^\| \d+ \| /gm)).toHaveLength(generatePaths().length);
  }, 30_000);

  it('refuses an unknown format with exit 2', async () => {
    const run = await runCli(['paths', '--format', 'html']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('markdown, json');
  });
});
