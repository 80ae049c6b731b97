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
    // Unambiguous from the states alone: one transition joins each of these pairs.
    expect(counts.get(edge('build_context', 'call_model', 'contextFits'))).toBe(4);
    expect(counts.get(edge('call_model', 'validate_tool', 'responseHasToolCalls'))).toBe(2);
    expect(counts.get(edge('validate_tool', 'recover', 'callInvalid'))).toBe(1);
    expect(counts.get(edge('validate_tool', 'ask_permission'))).toBe(1);
    expect(counts.get(edge('ask_permission', 'execute_tool', 'permissionAllowed'))).toBe(1);
    expect(counts.get(edge('execute_tool', 'append_tool_result'))).toBe(1);
    expect(counts.get(edge('append_tool_result', 'call_model'))).toBe(1);
    expect(counts.get(edge('recover', 'call_model'))).toBe(1);
    expect(counts.get('queryEngine:ABORT:0')).toBe(0);
    // call_model -> done is three transitions of call_model and two of the root: only `via` tells them apart.
    const withVia = traces().every((t) =>
      t
        .split('\n')
        .filter((l) => l.includes('"state"'))
        .every((l) => l.includes('"via"')),
    );
    if (withVia) {
      expect(counts.get('call_model:xstate.done.actor.callModel:3')).toBe(4); // final_answer
      expect(run.stderr).toContain('Skipped no steps.');
    } else {
      expect(counts.get('call_model:xstate.done.actor.callModel:3')).toBe(0);
      expect(run.stderr).toContain('Skipped 4 steps of traces without "via"');
    }
    expect(run.stderr).toMatch(/Counted \d+ transitions in 4 tasks of 4 sessions/);
    expect(run.stderr).toContain('call_model --error(callModel)--> done');
    expect(run.stderr).not.toMatch(/^ {2}build_context --always \[contextFits\]--> call_model$/m);
  }, 30_000);

  it('draws the counts into the SVG and Mermaid heat maps', async () => {
    const svg = await runCli(['diagram', '--from-sessions', '--format', 'svg'], { env: { XAGENT_HOME: home } });
    expect(svg.stdout).toMatch(
      /data-edge="build_context:always:5"[^>]*>\s*<text[^>]*>always<\/text>\s*<text[^>]*>\[contextFits\]<\/text>\s*<text[^>]*>taken 4×<\/text>/,
    );
    expect(svg.stdout).toContain('class="edge kind-error heat-0" data-edge="call_model:xstate.error.actor.callModel:1"');
    expect(svg.stdout).toMatch(/class="arrow kind-[a-z]+ heat-4" data-group="build_context&gt;call_model"/);
    const mermaid = await runCli(['diagram', '--from-sessions'], { env: { XAGENT_HOME: home } });
    expect(mermaid.stdout).toContain('always [contextFits] (taken 4×)');
    expect(mermaid.stdout).toContain('validate_tool --> done : always [maxToolCallsReached] / stop(max_tool_calls) (never taken)');
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
  const line = (seq: number, state: string, via?: string) => ({
    seq,
    state,
    ts: '2026-12-01T00:00:00Z',
    ...(via ? { via: { event: via } } : {}),
  });

  it('tells the three ways from call_model to done apart by the event in via', () => {
    const result = countTransitions(graph, [
      [line(0, 'build_context', 'xstate.init'), line(1, 'call_model', 'always'), line(2, 'done', 'xstate.error.actor.callModel')],
      [line(0, 'build_context', 'xstate.init'), line(1, 'call_model', 'always'), line(2, 'done', 'ABORT')],
      [line(0, 'build_context', 'xstate.init'), line(1, 'call_model', 'always'), line(2, 'done', 'always')],
    ]);
    expect(result.counts.get('call_model:xstate.error.actor.callModel:1')).toBe(1);
    expect(result.counts.get('queryEngine:ABORT:0')).toBe(1);
    expect(result.counts.get('call_model:always:1')).toBe(1);
    expect(result.counts.get('build_context:always:5')).toBe(3);
    expect(result).toMatchObject({ counted: 6, tasks: 3, skipped: { withoutVia: 0, unmatched: 0 } });
  });

  it('counts an old trace without via only where one transition joins the two states, and says how many it skipped', () => {
    const annotation: CountedLine = JSON.parse('{"event":"retry","ts":"x"}');
    const result = countTransitions(graph, [[line(0, 'build_context'), line(1, 'call_model'), line(2, 'done'), annotation]]);
    // build_context -> call_model is three transitions since compaction (done/error of compactContext, always):
    // without via neither step is certain.
    expect(result.counts.get('build_context:always:5')).toBe(0);
    expect(result).toMatchObject({ counted: 0, tasks: 1, skipped: { withoutVia: 2, unmatched: 0 } });
  });

  it('reports a via event that no transition of the chart has', () => {
    const result = countTransitions(graph, [[line(0, 'build_context', 'xstate.init'), line(1, 'call_model', 'SOMETHING.ELSE')]]);
    expect(result).toMatchObject({ counted: 0, skipped: { withoutVia: 0, unmatched: 1 } });
  });
});
