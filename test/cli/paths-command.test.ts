import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../machines/chart-graph.js';
import { generatePaths, pathName } from '../../src/paths/generate-paths.js';
import { runCli } from '../support/run-cli.js';

interface JsonReport {
  paths: Array<{ name: string; transitions: string[]; states: string[]; stopReason: string | null }>;
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
    expect(denied?.stopReason).toBe('permission_denied');
    // Every event has hooks in the main start: each wait is a state of its own, left when its actor answers.
    expect(denied?.transitions).toEqual([
      'build_context.starting:always[sessionStartDue]>build_context.session_start_hooks',
      'build_context.session_start_hooks:xstate.done.actor.sessionStartHooks[userPromptSubmitDue]>build_context.prompt_hooks',
      'build_context.prompt_hooks:xstate.done.actor.userPromptSubmitHooks>build_context.measuring',
      'build_context.measuring:always>call_model',
      'call_model.checking_limits:always>call_model.requesting',
      'call_model.requesting:xstate.done.actor.callModel[responseHasToolCalls]>validate_tool',
      'validate_tool:always>ask_permission.deciding',
      'ask_permission.deciding:always[permissionDenied]>done',
    ]);
    expect(denied?.states).toEqual([
      'build_context.starting',
      'build_context.session_start_hooks',
      'build_context.prompt_hooks',
      'build_context.measuring',
      'call_model.checking_limits',
      'call_model.requesting',
      'validate_tool',
      'ask_permission.deciding',
      'done',
    ]);
    // Every transition id the report names is one of the chart's.
    const ids = new Set(chartGraph(queryEngine).edges.map((e) => e.id));
    expect(report.paths.flatMap((p) => p.transitions).filter((id) => !ids.has(id))).toEqual([]);
    // The other starts (inputs) are in the report too, named.
    expect(report.paths.some((p) => p.name.startsWith('no hooks: '))).toBe(true);
  }, 30_000);

  it('prints Markdown by default: the coverage table, every transition and every path', async () => {
    const run = await runCli(['paths']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\| transitions \| (\d+) \/ \1 \| 100\.0 % \|$/m);
    expect(run.stdout).toMatch(
      /^\| `validate_tool --always \[callInvalid\]--> recover` \| `validate_tool:always\[callInvalid\]>recover` \| \d+ \|$/m,
    );
    expect(run.stdout).toMatch(/^\| `ask_permission.asking_user --done\(askPermission\)--> ask_permission.deciding` \| .* \| \d+ \|$/m);
    expect(run.stdout.match(/^\| \d+ \| /gm)).toHaveLength(generatePaths().length);
  }, 30_000);

  it('refuses an unknown format with exit 2', async () => {
    const run = await runCli(['paths', '--format', 'html']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('markdown, json');
  });
});
