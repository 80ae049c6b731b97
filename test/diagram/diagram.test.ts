import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMachine, type AnyStateNode } from 'xstate';
import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../machines/chart-graph.js';
import { diagramPaths } from '../../src/diagram/generate.js';
import { layoutChart } from '../../src/diagram/layout.js';
import { toMermaid } from '../../src/diagram/mermaid.js';
import { renderDiagram } from '../../src/diagram/render.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const committed = diagramPaths(root);
const regenerate = 'the machine changed: run `npm run diagrams` and commit machines/query-engine.{mmd,svg}';
const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

describe('diagrams generated from the engine chart', () => {
  const graph = chartGraph(queryEngine);

  it('lists the eight top-level states, each wait nested inside one, with entry actions and invoked actors', () => {
    expect(graph.nodes.filter((n) => !n.parent).map((n) => n.id)).toEqual([
      'build_context',
      'call_model',
      'validate_tool',
      'ask_permission',
      'execute_tool',
      'append_tool_result',
      'recover',
      'done',
    ]);
    expect(graph.nodes.find((n) => n.id === 'ask_permission')).toEqual({
      id: 'ask_permission',
      children: ['ask_permission.planning_batch', 'ask_permission.pre_tool_hooks', 'ask_permission.deciding', 'ask_permission.asking_user'],
      initial: false,
      final: false,
      // The rules decide on the transitions that bring one call in: a planned batch skips them.
      entry: [],
    });
    // The batch is decided in a routing state of its own, not inside validate_tool's entry.
    expect(graph.nodes.find((n) => n.id === 'validate_tool')).toMatchObject({ entry: ['validateCall'] });
    expect(graph.nodes.find((n) => n.id === 'ask_permission.planning_batch')).toMatchObject({ entry: ['planBatch'] });
    expect(graph.nodes.find((n) => n.id === 'ask_permission.asking_user')).toEqual({
      id: 'ask_permission.asking_user',
      parent: 'ask_permission',
      initial: false,
      final: false,
      invoke: ['askPermission'],
      // The person's wait tells the deadline to stand still (sendTo), and to go on when it ends.
      entry: ['pauseDeadline'],
    });
    expect(graph.nodes.find((n) => n.id === 'execute_tool.running')).toMatchObject({ invoke: ['executeTool'] });
    // A subagent and a batch's calls are children the state spawns on entry (and stops on exit).
    expect(graph.nodes.find((n) => n.id === 'execute_tool.subagent')).toMatchObject({ entry: ['startSubagent'] });
    expect(graph.nodes.find((n) => n.id === 'execute_tool.batch')).toMatchObject({ entry: ['startBatchCalls'] });
    expect(graph.nodes.filter((n) => n.initial && !n.parent).map((n) => n.id)).toEqual(['build_context']);
    expect(graph.nodes.filter((n) => n.final).map((n) => n.id)).toEqual(['done']);
    expect(graph.invoke).toEqual(['deadline']);
  });

  it('keeps what machine.toJSON() loses: always branches, guard names, root handlers, action params', () => {
    expect(graph.edges.filter((e) => e.from === 'validate_tool').map((e) => [e.id, e.to, e.guard, e.actions])).toEqual([
      ['validate_tool:always[maxToolCallsReached]>done', 'done', 'maxToolCallsReached', ['stop(max_tool_calls)']],
      ['validate_tool:always[ruleFailed]>done', 'done', 'ruleFailed', ['stop(tool_error)']],
      ['validate_tool:always[callInvalid]>recover', 'recover', 'callInvalid', []],
      ['validate_tool:always[callsFollow]>ask_permission.planning_batch', 'ask_permission.planning_batch', 'callsFollow', []],
      [
        'validate_tool:always[preToolUseDue]>ask_permission.pre_tool_hooks',
        'ask_permission.pre_tool_hooks',
        'preToolUseDue',
        ['decidePermission'],
      ],
      ['validate_tool:always>ask_permission.deciding', 'ask_permission.deciding', undefined, ['decidePermission']],
    ]);
    expect(graph.edges.filter((e) => e.from === 'ask_permission.planning_batch').map((e) => [e.id, e.guard, e.actions])).toEqual([
      ['ask_permission.planning_batch:always[batchPlanned]>execute_tool.batch', 'batchPlanned', []],
      ['ask_permission.planning_batch:always[preToolUseDue]>ask_permission.pre_tool_hooks', 'preToolUseDue', ['decidePermission']],
      ['ask_permission.planning_batch:always>ask_permission.deciding', undefined, ['decidePermission']],
    ]);
    expect(graph.edges.filter((e) => e.kind === 'root').map((e) => [e.event, e.guard, e.to])).toEqual([
      ['ABORT', 'parentTimedOut', 'done'],
      ['ABORT', undefined, 'done'],
      ['CLOCK.TICK', 'timedOut', 'done'],
    ]);
    // A target may be a compound state: the transition enters its initial child.
    expect(graph.edges.find((e) => e.id === 'build_context.measuring:always>call_model')).toMatchObject({
      from: 'build_context.measuring',
      to: 'call_model',
      actions: [],
      kind: 'always',
    });
    // Every wait is a state: the only transitions that stay are the batch's, recording each child's answer
    // (its children are spawned, one per call); none re-enters its state.
    expect(graph.edges.filter((e) => e.internal || e.reenter || e.from === e.to).map((e) => e.id)).toEqual([
      'execute_tool.batch:xstate.done.actor.*',
      'execute_tool.batch:xstate.error.actor.*',
    ]);
    expect(new Set(graph.edges.map((e) => e.id)).size).toBe(graph.edges.length);
    // One edge per transition the machine defines (counted from XState's own state nodes, not mirrored here).
    expect(graph.edges).toHaveLength(definedTransitions(queryEngine.root));
  });

  it('matches the committed Mermaid file', async () => {
    expect(await renderDiagram('mermaid'), regenerate).toBe(readFileSync(committed.mermaid, 'utf8'));
  });

  it('matches the committed SVG file, since the ELK layout is deterministic', async () => {
    expect(await renderDiagram('svg'), regenerate).toBe(readFileSync(committed.svg, 'utf8'));
  });

  it('would catch a changed machine: a new state or transition changes the Mermaid text', () => {
    const changed = createMachine({
      ...queryEngine.config,
      states: { ...queryEngine.config.states, compact_history: { always: 'done' } },
    });
    expect(toMermaid(chartGraph(changed))).not.toBe(readFileSync(committed.mermaid, 'utf8'));
  });

  it('renders SVG states and edges the inspector can find by data attributes', async () => {
    const svg = await renderDiagram('svg');
    for (const node of graph.nodes) expect(svg).toContain(`data-state="${node.id}"`);
    // A targetless transition is no arrow: it is listed in its state's box, as UML draws internal transitions.
    for (const edge of graph.edges.filter((e) => !e.internal || e.kind === 'root'))
      expect(svg).toContain(`data-edge="${escapeXml(edge.id)}"`);
    expect(svg).toContain('done(*) / recordBatchOutcome, startBatchCalls');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('lays out every node and routes every edge with ELK, the same way every time', async () => {
    const layout = await layoutChart(graph);
    expect(layout.nodes.map((n) => n.id).sort()).toEqual([...graph.nodes.map((n) => n.id), 'any_state'].sort());
    for (const edge of layout.edges) expect(edge.sections.length).toBeGreaterThan(0);
    expect(await layoutChart(graph)).toEqual(layout);
  });

  it('draws each nested state inside its parent box; the compound top-level states are the big boxes', async () => {
    const layout = await layoutChart(graph);
    const byId = new Map(layout.nodes.map((n) => [n.id, n]));
    expect(layout.nodes.filter((n) => n.compound).map((n) => n.id)).toEqual([
      'build_context',
      'call_model',
      'ask_permission',
      'execute_tool',
      'append_tool_result',
    ]);
    const outside = layout.nodes.flatMap((n) => {
      if (!n.parent) return [];
      const box = byId.get(n.parent)!;
      const inside = n.x >= box.x && n.y >= box.y && n.x + n.width <= box.x + box.width && n.y + n.height <= box.y + box.height;
      return inside ? [] : [n.id];
    });
    expect(outside).toEqual([]);
    expect(layout.nodes.filter((n) => n.parent).length).toBe(graph.nodes.filter((n) => n.parent).length);
  });

  it('draws compound states as SVG boxes around their children and as Mermaid composite states', async () => {
    const svg = await renderDiagram('svg');
    expect(svg).toMatch(/<g class="state compound[^"]*" data-state="call_model" transform/);
    // A nested state is titled by its own name; its box says the rest.
    expect(svg).toMatch(
      /data-state="call_model\.requesting" data-parent="call_model"[^>]*>\s*<rect[^>]*\/>\s*<text class="title"[^>]*>requesting</,
    );
    const mermaid = toMermaid(graph);
    expect(mermaid).toContain('  state call_model {\n    state "checking_limits" as call_model__checking_limits\n');
    expect(mermaid).toContain('    [*] --> call_model__checking_limits\n');
    // An arrow inside one box is written in it; one across boxes after all of them.
    expect(mermaid).toMatch(/state call_model \{[^}]*\n {4}call_model__checking_limits --> call_model__requesting : always\n[^}]*\}/);
    expect(mermaid).toContain('\n  append_tool_result__collected --> call_model__requesting : always / appendToolResults\n');
  });

  it('renders JSON that lists every state and transition with id, from, to, event and guard', async () => {
    const json = JSON.parse(await renderDiagram('json')) as typeof graph;
    expect(json).toEqual(JSON.parse(JSON.stringify(graph)));
    expect(json.nodes.map((n) => n.id)).toContain('ask_permission.asking_user');
    expect(json.edges.find((e) => e.from === 'ask_permission.asking_user' && e.event === 'xstate.done.actor.askPermission')).toMatchObject({
      id: 'ask_permission.asking_user:xstate.done.actor.askPermission>ask_permission.deciding',
      to: 'ask_permission.deciding',
    });
    expect(json.fingerprint).toMatch(/^[0-9a-f]{14}$/);
  });
});

describe('docs that embed the diagram', () => {
  it('docs/engine.md embeds the committed Mermaid diagram', () => {
    const doc = readFileSync(path.join(root, 'docs', 'engine.md'), 'utf8');
    expect(doc, 'paste machines/query-engine.mmd into docs/engine.md').toContain(
      `\`\`\`mermaid\n${readFileSync(committed.mermaid, 'utf8')}\`\`\``,
    );
  });
});

/** Every transition XState knows of a state node and its descendants: events, invoke results and `always`. */
function definedTransitions(node: AnyStateNode): number {
  let count = node.always?.length ?? 0;
  for (const list of node.transitions.values()) count += list.length;
  for (const child of Object.values(node.states)) count += definedTransitions(child);
  return count;
}
