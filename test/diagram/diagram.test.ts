import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../../src/diagram/chart-graph.js';
import { diagramPaths } from '../../src/diagram/generate.js';
import { layoutChart } from '../../src/diagram/layout.js';
import { toMermaid } from '../../src/diagram/mermaid.js';
import { renderDiagram } from '../../src/diagram/render.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const committed = diagramPaths(root);
const regenerate = 'the machine changed: run `npm run diagrams` and commit machines/query-engine.{mmd,svg}';

describe('diagrams generated from the engine chart', () => {
  const graph = chartGraph(queryEngine);

  it('lists the eight states with their entry actions and invoked actors', () => {
    expect(graph.nodes.map((n) => n.id)).toEqual([
      'build_context',
      'call_model',
      'validate_tool',
      'ask_permission',
      'execute_tool',
      'append_tool_result',
      'recover',
      'done',
    ]);
    // The prompt is spawned (after the PreToolUse hooks, when still due), not invoked.
    expect(graph.nodes.find((n) => n.id === 'ask_permission')).toEqual({
      id: 'ask_permission',
      initial: false,
      final: false,
      entry: ['decidePermission'],
    });
    expect(graph.nodes.find((n) => n.id === 'execute_tool')).toMatchObject({ invoke: ['executeTool'] });
    expect(graph.nodes.filter((n) => n.initial).map((n) => n.id)).toEqual(['build_context']);
    expect(graph.nodes.filter((n) => n.final).map((n) => n.id)).toEqual(['done']);
    expect(graph.invoke).toEqual(['deadline']);
  });

  it('keeps what machine.toJSON() loses: always branches, guard names, root handlers, action params', () => {
    expect(graph.edges.filter((e) => e.from === 'validate_tool')).toEqual([
      {
        id: 'validate_tool:always:0',
        from: 'validate_tool',
        to: 'done',
        event: '',
        guard: 'maxToolCallsReached',
        actions: ['stop(max_tool_calls)'],
        kind: 'always',
      },
      { id: 'validate_tool:always:1', from: 'validate_tool', to: 'recover', event: '', guard: 'callInvalid', actions: [], kind: 'always' },
      { id: 'validate_tool:always:2', from: 'validate_tool', to: 'ask_permission', event: '', actions: [], kind: 'always' },
    ]);
    expect(graph.edges.filter((e) => e.kind === 'root').map((e) => [e.event, e.guard, e.to])).toEqual([
      ['ABORT', undefined, 'done'],
      ['CLOCK.TICK', 'timedOut', 'done'],
    ]);
    expect(graph.edges.find((e) => e.id === 'call_model:xstate.done.actor.callModel:1')).toMatchObject({
      to: 'call_model',
      reenter: true,
      kind: 'done',
    });
    expect(graph.edges.find((e) => e.id === 'ask_permission:xstate.done.actor.askPermission:0')).toMatchObject({ internal: true });
    expect(graph.edges.find((e) => e.id === 'ask_permission:always:1')).toMatchObject({
      guard: 'preToolUseDue',
      actions: ['startHooks(PreToolUse)'],
      internal: true,
    });
    expect(graph.edges).toHaveLength(51);
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
      states: { ...queryEngine.config.states, compact_history: { always: 'call_model' } },
    });
    expect(toMermaid(chartGraph(changed))).not.toBe(readFileSync(committed.mermaid, 'utf8'));
  });

  it('renders SVG states and edges the inspector can find by data attributes', async () => {
    const svg = await renderDiagram('svg');
    for (const node of graph.nodes) expect(svg).toContain(`data-state="${node.id}"`);
    for (const edge of graph.edges) expect(svg).toContain(`data-edge="${edge.id}"`);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('lays out every node and routes every edge with ELK', async () => {
    const layout = await layoutChart(graph);
    expect(layout.nodes.map((n) => n.id).sort()).toEqual([...graph.nodes.map((n) => n.id), 'any_state'].sort());
    for (const edge of layout.edges) expect(edge.sections.length).toBeGreaterThan(0);
    expect(await layoutChart(graph)).toEqual(layout);
  });

  it('renders JSON that parses back to the graph model', async () => {
    expect(JSON.parse(await renderDiagram('json'))).toEqual(JSON.parse(JSON.stringify(graph)));
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
