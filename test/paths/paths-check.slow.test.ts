import { describe, expect, it } from 'vitest';
import { generatePaths } from '../../src/paths/generate-paths.js';
import { testMachine } from '../../src/paths/engine-model.js';
import { pathsReport } from '../../src/paths/path-coverage.js';
import { coverageGaps, OUTCOME_MODEL } from '../../src/paths/paths-check.js';
import { UnboundedStateSpace } from '../../src/paths/state-space-bound.js';
import { runCli } from '../support/run-cli.js';

/**
 * `xagent paths --check`, `--minimal`, `--through`, and the bound on generation. Slow: each
 * generation and replay of the 3,000-odd paths takes about ten seconds.
 */
describe('xagent paths --check, --minimal, --through', () => {
  it('--check exits 0 on this chart and says the coverage is complete', async () => {
    const run = await runCli(['paths', '--check']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Coverage complete over \d+ generated paths: states (\d+)\/\1, transitions (\d+)\/\2/);
  }, 60_000);

  it('--check names the transition left uncovered, and the files of the outcome model, when an outcome is left out', () => {
    const report = pathsReport(generatePaths({ drop: new Set(['abort']) }));
    const gaps = coverageGaps(report);
    expect(gaps[0]).toMatch(/^\d+ gaps in the coverage/);
    expect(gaps).toContain('  transition not taken: queryEngine:ABORT>done');
    expect(gaps).toContain('  event variant not sent: abort');
    for (const file of OUTCOME_MODEL) expect(gaps).toContain(`  ${file}`);
  }, 60_000);

  it('--minimal prints one shortest witness for every transition; --through lists only the paths that take it', async () => {
    const minimal = await runCli(['paths', '--minimal', '--format', 'json']);
    expect(minimal.code, minimal.stderr).toBe(0);
    const witnesses = JSON.parse(minimal.stdout) as Array<{ transition: string; start: string; events: string[] }>;
    const full = pathsReport(generatePaths());
    expect(witnesses.map((w) => w.transition)).toEqual(full.transitions.map((t) => t.id));
    expect(witnesses.find((w) => w.transition === 'queryEngine:ABORT>done')).toEqual({
      transition: 'queryEngine:ABORT>done',
      start: '',
      events: ['abort'],
    });
    // Each witness is as short as any path taking its transition allows.
    for (const w of witnesses) {
      const shortest = Math.min(
        ...full.paths.flatMap((p) => p.transitions.flatMap((id, k) => (id === w.transition ? [p.takenAt[k]!] : []))),
      );
      expect(w.events.length, w.transition).toBe(shortest);
    }
    const id = 'ask_permission.asking_user:xstate.error.actor.askPermission>ask_permission.deciding';
    const through = await runCli(['paths', '--through', id, '--format', 'json']);
    const listed = JSON.parse(through.stdout) as Array<{ transitions: string[] }>;
    expect(listed.length).toBe(full.paths.filter((p) => p.transitions.includes(id)).length);
    expect(listed.every((p) => p.transitions.includes(id))).toBe(true);
    const unknown = await runCli(['paths', '--through', 'no_such_state']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--through "no_such_state" is neither a state nor a transition id');
  }, 120_000);

  it('with a bound removed from the chart, generation fails within 30 s and 1 GB, naming the field that keeps growing', () => {
    const unbounded = testMachine.provide({ guards: { maxTurnsReached: () => false } });
    const started = performance.now();
    const before = process.memoryUsage().rss;
    let failure: unknown;
    try {
      generatePaths({ machine: unbounded });
    } catch (error) {
      failure = error;
    }
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(process.memoryUsage().rss - before).toBeLessThan(1_000_000_000);
    expect(failure).toBeInstanceOf(UnboundedStateSpace);
    expect((failure as Error).message).toMatch(/passed \d+ states without running out: turn \(\d+ → \d+\)/);
  }, 60_000);
});

describe('xagent diagram --diff with the chart this xagent runs', () => {
  it('reports the path coverage of this chart in the pull-request summary, and the older side’s totals', async () => {
    // HEAD's machines/ against the running chart (the working tree): the repository this test runs in.
    const run = await runCli(['diagram', '--diff', 'HEAD', '--format', 'markdown'], { cwd: process.cwd() });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('## Chart diff: HEAD → this chart');
    expect(run.stdout).toContain('### Path coverage');
    expect(run.stdout).toMatch(/^\| transitions \| \? \/ \d+ \| (\d+) \/ \1 \|$/m);
    expect(run.stdout).toMatch(/^\| guard outcomes \| - \| (\d+) \/ \1 \|$/m);
  }, 120_000);
});
