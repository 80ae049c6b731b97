import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../src/diagram/chart-graph.js';
import { countTransitions, type CountedLine } from '../../src/diagram/transition-counts.js';
import { tempDir, writeJson } from '../support/engine-harness.js';
import { CLI, runCli } from '../support/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const graph = chartGraph(queryEngine);

/** Scripted runs whose paths through the chart are known, and how many sessions of each to record. */
const RUNS = [
  { name: 'answer', times: 2, script: { responses: [{ text: 'Nothing to do.' }] } },
  {
    name: 'read-then-answer',
    times: 1,
    script: {
      responses: [{ content: [{ type: 'tool_use', name: 'read_file', input: { path: 'notes.txt' } }] }, { text: 'It says hello.' }],
    },
  },
  {
    name: 'unknown-tool-then-answer',
    times: 1,
    script: { responses: [{ content: [{ type: 'tool_use', name: 'nope', input: {} }] }, { text: 'Sorry, done.' }] },
  },
];

describe('xagent diagram --from-sessions', () => {
  const home = tempDir('xagent-heat-');
  const workspace = tempDir('xagent-heat-ws-');

  beforeAll(async () => {
    if (!existsSync(CLI)) spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
    writeFileSync(path.join(workspace, 'notes.txt'), 'hello\n');
    mkdirSync(path.join(home, 'scripts'));
    for (const run of RUNS) {
      const script = writeJson(path.join(home, 'scripts', `${run.name}.json`), run.script);
      for (let k = 0; k < run.times; k++) {
        const done = await runCli(
          ['-p', `run ${run.name}`, '--model-script', script, '--cwd', workspace, '--permission-mode', 'bypassPermissions'],
          { env: { XAGENT_HOME: home } },
        );
        expect(done.code, done.stderr).toBe(0);
      }
    }
  }, 120_000);

  const traces = () =>
    readdirSync(path.join(home, 'sessions')).map((id) => readFileSync(path.join(home, 'sessions', id, 'trace.jsonl'), 'utf8'));

  it('counts each transition as often as the recorded traces took it, by the id each state line names', async () => {
    expect(traces()).toHaveLength(4);
    const run = await runCli(['diagram', '--from-sessions', '--format', 'json'], { env: { XAGENT_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    const counts = new Map((JSON.parse(run.stdout) as { edges: Array<{ id: string; count: number }> }).edges.map((e) => [e.id, e.count]));
    expect(counts.get('build_context.starting:always>build_context.measuring')).toBe(4);
    expect(counts.get('build_context.measuring:always>call_model')).toBe(4);
    // Four first requests and the two that follow a tool call.
    expect(counts.get('call_model.checking_limits:always>call_model.requesting')).toBe(6);
    expect(counts.get('call_model.requesting:xstate.done.actor.callModel[responseHasToolCalls]>validate_tool')).toBe(2);
    expect(counts.get('validate_tool:always[callInvalid]>recover')).toBe(1);
    expect(counts.get('validate_tool:always>ask_permission.deciding')).toBe(1);
    expect(counts.get('ask_permission.deciding:always[permissionAllowed]>execute_tool')).toBe(1);
    expect(counts.get('execute_tool:xstate.done.actor.executeTool>append_tool_result.collected')).toBe(1);
    expect(counts.get('append_tool_result.collected:always>call_model')).toBe(1);
    expect(counts.get('recover:always>call_model')).toBe(1);
    // call_model.requesting -> done is two transitions of the state and two of the root: the trace names which.
    expect(counts.get('call_model.requesting:xstate.done.actor.callModel>done')).toBe(4);
    expect(counts.get('call_model.requesting:xstate.error.actor.callModel>done')).toBe(0);
    expect(counts.get('queryEngine:ABORT>done')).toBe(0);
    expect(run.stderr).toContain('Skipped no steps.');
    expect(run.stderr).toMatch(/Counted \d+ transitions in 4 tasks of 4 sessions/);
    expect(run.stderr).toContain('call_model.requesting --error(callModel)--> done');
    expect(run.stderr).not.toMatch(/^ {2}build_context.measuring --always--> call_model$/m);
  }, 30_000);

  it('draws the counts on the new edges of the SVG and Mermaid heat maps', async () => {
    const svg = await runCli(['diagram', '--from-sessions', '--format', 'svg'], { env: { XAGENT_HOME: home } });
    expect(svg.stdout).toMatch(
      /data-edge="build_context\.measuring:always&gt;call_model"[^>]*>\s*<text[^>]*>always<\/text>\s*<text[^>]*>taken 4×<\/text>/,
    );
    expect(svg.stdout).toContain('class="edge kind-error heat-0" data-edge="call_model.requesting:xstate.error.actor.callModel&gt;done"');
    expect(svg.stdout).toMatch(/class="arrow kind-[a-z]+ heat-4" data-group="build_context\.measuring&gt;call_model"/);
    const mermaid = await runCli(['diagram', '--from-sessions'], { env: { XAGENT_HOME: home } });
    expect(mermaid.stdout).toContain('  build_context__measuring --> call_model : always (taken 4×)\n');
    expect(mermaid.stdout).toContain(
      'validate_tool --> done : always [maxToolCallsReached] / stop(max_tool_calls) (never taken)<br/>always [ruleFailed] / stop(tool_error) (never taken)',
    );
  }, 30_000);

  it('counts only steps from --since on, and refuses a --since that is not a date', async () => {
    const later = await runCli(['diagram', '--from-sessions', '--since', '2999-01-01', '--format', 'json'], { env: { XAGENT_HOME: home } });
    expect(later.code).toBe(0);
    expect((JSON.parse(later.stdout) as { edges: Array<{ count: number }> }).edges.every((e) => e.count === 0)).toBe(true);
    const bad = await runCli(['diagram', '--from-sessions', '--since', 'last week'], { env: { XAGENT_HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "last week" is not a date');
  }, 30_000);
});

describe('countTransitions', () => {
  const line = (seq: number, state: string, via?: string, transition?: string) => ({
    seq,
    state,
    ts: '2026-12-01T00:00:00Z',
    ...(via ? { via: { event: via, ...(transition ? { transition } : {}) } } : {}),
  });
  const start = [
    line(0, 'build_context.starting', 'xstate.init'),
    line(1, 'build_context.measuring', 'always', 'build_context.starting:always>build_context.measuring'),
    line(2, 'call_model.checking_limits', 'always', 'build_context.measuring:always>call_model'),
    line(3, 'call_model.requesting', 'always', 'call_model.checking_limits:always>call_model.requesting'),
  ];

  it('tells the ways from call_model.requesting to done apart by the transition each line names', () => {
    const result = countTransitions(graph, [
      [...start, line(4, 'done', 'xstate.error.actor.callModel', 'call_model.requesting:xstate.error.actor.callModel>done')],
      [...start, line(4, 'done', 'ABORT', 'queryEngine:ABORT>done')],
      [...start, line(4, 'done', 'xstate.done.actor.callModel', 'call_model.requesting:xstate.done.actor.callModel>done')],
    ]);
    expect(result.counts.get('call_model.requesting:xstate.error.actor.callModel>done')).toBe(1);
    expect(result.counts.get('queryEngine:ABORT>done')).toBe(1);
    expect(result.counts.get('call_model.requesting:xstate.done.actor.callModel>done')).toBe(1);
    expect(result.counts.get('build_context.measuring:always>call_model')).toBe(3);
    expect(result).toMatchObject({ counted: 12, tasks: 3, skipped: { withoutVia: 0, unmatched: 0 } });
  });

  it('counts a step of a trace without via only where one transition joins the two states, and says how many it skipped', () => {
    const annotation: CountedLine = JSON.parse('{"event":"retry","ts":"x"}');
    const result = countTransitions(graph, [
      [line(0, 'build_context.starting'), line(1, 'build_context.measuring'), line(2, 'done'), annotation],
    ]);
    expect(result.counts.get('build_context.starting:always>build_context.measuring')).toBe(1);
    // Into done from measuring: only ABORT or the deadline could, and the line does not say which.
    expect(result).toMatchObject({ counted: 1, tasks: 1, skipped: { withoutVia: 1, unmatched: 0 } });
  });

  it('reports a via event that no transition of the chart has', () => {
    const result = countTransitions(graph, [
      [line(0, 'build_context.starting', 'xstate.init'), line(1, 'build_context.measuring', 'SOMETHING.ELSE')],
    ]);
    expect(result).toMatchObject({ counted: 0, skipped: { withoutVia: 0, unmatched: 1 } });
  });
});
