import { describe, expect, it } from 'vitest';
import { chartGraph } from '../../machines/chart-graph.js';
import { ENGINE_STATES, queryEngine } from '../../machines/query-engine.js';
import { chartView, STUB } from '../../src/diagram/chart-view.js';
import { parseDiagramFlags } from '../../src/cli/diagram-command.js';

const graph = chartGraph(queryEngine);
const within = (id: string, state: string) => id === state || id.startsWith(`${state}.`);

describe('views of the chart', () => {
  it('--depth 1 draws the eight top-level states, each compound one as a box saying how much it holds', () => {
    const view = chartView(graph, { depth: 1, labels: 'guard' });
    expect(view.nodes.map((n) => n.id)).toEqual([...ENGINE_STATES]);
    for (const node of view.nodes.filter((n) => graph.nodes.find((g) => g.id === n.id)?.children)) {
      const inside = graph.nodes.filter((g) => g.id !== node.id && within(g.id, node.id)).length;
      expect(node.inner?.states, node.id).toBe(inside);
      expect(node.children).toBeUndefined();
    }
  });

  it('--depth 1 accounts for every transition once: on an arrow between two top-level states, or inside a box', () => {
    const view = chartView(graph, { depth: 1, labels: 'event' });
    const drawn = view.edges.flatMap((e) => e.members);
    expect(new Set(drawn).size).toBe(drawn.length);
    const inside = graph.edges.filter((e) => !drawn.includes(e.id));
    for (const edge of inside) expect(edge.from.split('.')[0], edge.id).toBe(edge.to.split('.')[0]);
    const counted = view.nodes.reduce((n, node) => n + (node.inner?.transitions ?? 0), 0);
    expect(drawn.length + counted).toBe(graph.edges.length);
    // Merged by label: fewer arrows than transitions, every arrow between drawn states.
    expect(view.edges.length).toBeLessThan(drawn.length);
    const ids = new Set([...view.nodes.map((n) => n.id), graph.id]);
    for (const edge of view.edges) expect(ids.has(edge.from) && ids.has(edge.to), edge.id).toBe(true);
  });

  it('--state call_model expands it and draws every transition in or out, the other end a stub named after that state', () => {
    const view = chartView(graph, { state: 'call_model', labels: 'full' });
    const touching = graph.edges.filter((e) => (e.kind !== 'root' && within(e.from, 'call_model')) || within(e.to, 'call_model'));
    expect(view.edges.flatMap((e) => e.members).sort()).toEqual(touching.map((e) => e.id).sort());
    const stubs = view.nodes.filter((n) => n.stub).map((n) => n.id.slice(STUB.length));
    const outside = new Set(touching.flatMap((e) => [e.from, e.to]).filter((id) => !within(id, 'call_model')));
    expect(stubs.sort()).toEqual([...outside].sort());
    expect(view.nodes.find((n) => n.id === 'call_model')?.children).toEqual(graph.nodes.find((n) => n.id === 'call_model')?.children);
  });

  it('--labels event keeps the trigger only, guard adds the guard, full the actions', () => {
    const edge = (labels: 'event' | 'guard' | 'full') =>
      chartView(graph, { state: 'ask_permission', labels }).edges.find((e) =>
        e.members.includes('ask_permission.deciding:always[permissionAllowed]>execute_tool'),
      );
    expect(edge('event')?.guard).toBeUndefined();
    expect(edge('guard')?.guard).toBe('permissionAllowed');
    expect(edge('guard')?.actions).toEqual([]);
    expect(edge('full')?.actions).toEqual(
      graph.edges.find((e) => e.id === 'ask_permission.deciding:always[permissionAllowed]>execute_tool')?.actions,
    );
  });

  it('refuses flags it cannot draw, saying what would do', () => {
    expect(() => parseDiagramFlags({ format: 'svg', depth: '0' })).toThrow(/--depth "0" must be a whole number from 1/);
    expect(() => parseDiagramFlags({ format: 'svg', size: '1920' })).toThrow(/--size "1920" must be WIDTHxHEIGHT/);
    expect(() => parseDiagramFlags({ format: 'svg', labels: 'all' })).toThrow(/--labels "all" must be one of: event, guard, full/);
    expect(() => parseDiagramFlags({ format: 'svg', depth: '1', state: 'call_model' })).toThrow(/two views/);
    expect(parseDiagramFlags({ format: 'png', depth: '1', size: '1280x800' })).toEqual({
      format: 'png',
      depth: 1,
      size: { width: 1280, height: 800 },
    });
  });
});
