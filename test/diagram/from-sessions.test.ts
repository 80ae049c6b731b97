import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../machines/chart-graph.js';
import { countTransitions, type CountedLine } from '../../src/diagram/transition-counts.js';
import { tempDir, writeJson } from '../support/engine-harness.js';
import { CLI, runCli } from '../support/run-cli.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const graph = chartGraph(queryEngine);
/** A transition's id by where it goes and its guard, so the expectations survive a reordered chart. */
const edge = (from: string, to: string, guard?: string) => {
  const found = graph.edges.filter((e) => e.from === from && e.to === to && e.guard === guard && !e.internal);
  if (found.length !== 1) throw new Error(`${found.length} edges ${from} -> ${to} [${guard}]`);
  return found[0]!.id;
};

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

  it('counts each transition as often as the recorded traces took it', async () => {
    expect(traces()).toHaveLength(4);
    const run = await runCli(['diagram', '--from-sessions', '--format', 'json'], { env: { XAGENT_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    const counts = new Map((JSON.parse(run.stdout) as { edges: Array<{ id: string; count: number }> }).edges.map((e) => [e.id, e.count]));
    expect(counts.get(edge('build_context.starting', 'build_context.measuring'))).toBe(4);
    expect(counts.get(edge('build_context.measuring', 'call_model'))).toBe(4);
    // Four first requests; the two after a tool round go straight to requesting.
    expect(counts.get(edge('call_model.checking_limits', 'call_model.requesting'))).toBe(4);
    expect(counts.get(edge('append_tool_result.collected', 'call_model.requesting'))).toBe(2);
    expect(counts.get(edge('call_model.requesting', 'validate_tool', 'responseHasToolCalls'))).toBe(2);
    expect(counts.get(edge('validate_tool', 'recover', 'callInvalid'))).toBe(1);
    expect(counts.get(edge('validate_tool', 'ask_permission.deciding'))).toBe(1);
    expect(counts.get(edge('ask_permission.deciding', 'execute_tool', 'permissionAllowed'))).toBe(1);
    expect(counts.get(edge('execute_tool.running', 'append_tool_result.collected'))).toBe(1);
    expect(counts.get(edge('recover', 'append_tool_result.collected'))).toBe(1);
    expect(counts.get('call_model.requesting:xstate.done.actor.callModel>done')).toBe(4); // final_answer
    expect(counts.get('queryEngine:ABORT>done')).toBe(0);
    expect(run.stderr).toContain('Skipped no steps.');
    // Every step of every task is a transition of this chart: the tasks' steps minus their first states.
    const steps = traces().reduce((n, t) => n + t.split('\n').filter((l) => l.includes('"state"')).length - 1, 0);
    expect(run.stderr).toContain(`Counted ${steps} transitions in 4 tasks of 4 sessions`);
    expect(run.stderr).toContain('call_model.requesting --error(callModel)--> done');
    expect(run.stderr).not.toContain('older chart');
    // The batch records each child's answer in place (execute_tool.batch): such transitions leave no state line.
    expect(run.stderr).toContain('Targetless transitions (they stay in their state) leave no state line and are not counted.');
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
  const start = { event: 'task_start', ts: '2026-12-01T00:00:00Z', chart: graph.fingerprint };
  const line = (seq: number, state: string, via?: string) => ({
    seq,
    state,
    ts: '2026-12-01T00:00:00Z',
    ...(via ? { via: { event: via } } : {}),
  });

  it('tells the ways from call_model.requesting to done apart by the event in via', () => {
    const task = (last: string) => [
      start,
      line(1, 'build_context.measuring', 'xstate.init'),
      line(2, 'call_model.checking_limits', 'always'),
      line(3, 'call_model.requesting', 'always'),
      line(4, 'done', last),
    ];
    const result = countTransitions(graph, [task('xstate.error.actor.callModel'), task('CLOCK.TICK'), task('xstate.done.actor.callModel')]);
    expect(result.counts.get('call_model.requesting:xstate.error.actor.callModel>done')).toBe(1);
    expect(result.counts.get('queryEngine:CLOCK.TICK[timedOut]>done')).toBe(1);
    expect(result.counts.get('call_model.requesting:xstate.done.actor.callModel>done')).toBe(1);
    expect(result.counts.get('call_model.checking_limits:always>call_model.requesting')).toBe(3);
    expect(result).toMatchObject({ counted: 9, tasks: 3, otherChartTasks: 0, skipped: { withoutVia: 0, unmatched: 0, otherChart: 0 } });
  });

  it('never guesses the edge of a trace without task_start (an older chart): flat states with no ids count nothing', () => {
    const annotation: CountedLine = JSON.parse('{"event":"retry","ts":"x"}');
    const result = countTransitions(graph, [[line(0, 'build_context'), line(1, 'call_model'), line(2, 'done'), annotation]]);
    expect([...result.counts.values()].every((n) => n === 0)).toBe(true);
    expect(result).toMatchObject({ counted: 0, tasks: 1, otherChartTasks: 1, skipped: { withoutVia: 0, unmatched: 0, otherChart: 2 } });
  });

  it('reports a via event that no transition of the chart has', () => {
    const result = countTransitions(graph, [
      [start, line(1, 'call_model.checking_limits', 'xstate.init'), line(2, 'call_model.requesting', 'SOMETHING.ELSE')],
    ]);
    expect(result).toMatchObject({ counted: 0, skipped: { withoutVia: 0, unmatched: 1, otherChart: 0 } });
  });
});
