import type { ChartEdge, ChartGraph, ChartNode } from '../../machines/chart-graph.js';
import { STUB, type ViewNode } from './chart-view.js';
import { ANY_STATE, countLine, edgeGroups, edgeText } from './edge-groups.js';

export { ANY_STATE, edgeText } from './edge-groups.js';

/** Mermaid's state ids must not contain dots; labels must not contain `:` or `;`. */
const mermaidId = (id: string) => id.replaceAll('.', '__').replaceAll(':', '__');
const mermaidText = (text: string) => text.replaceAll(';', ',').replaceAll(':', ' ');

/**
 * The chart as a Mermaid `stateDiagram-v2`, with every transition (guards, `always` branches,
 * root handlers drawn from an "any state" box), entry actions and invoked actors as notes. A
 * compound state is a composite state (`state call_model { ... }`) holding its children and the
 * transitions between them; transitions that cross boxes are listed after the boxes.
 * Deterministic: the same chart gives the same text, so the committed file can be diffed.
 * @example toMermaid(chartGraph(queryEngine)).startsWith('stateDiagram-v2') // true
 */
export function toMermaid(graph: ChartGraph, options: { counts?: ReadonlyMap<string, number> } = {}): string {
  const { counts } = options;
  const counted = (edge: ChartEdge, text: string) => (counts ? `${text} (${countLine(edge, counts.get(edge.id))})` : text);
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  // One arrow per pair of states, its transitions one per line: Mermaid places the labels of
  // parallel arrows on top of each other, and the root's handlers are drawn once.
  const groups = edgeGroups({ ...graph, edges: graph.edges.filter((e) => !e.internal || e.kind === 'root') });
  /** The box an arrow is written in: the parent both ends share, else the top level. */
  const home = (from: string, to: string) => {
    const parent = nodes.get(from)?.parent;
    return parent !== undefined && nodes.get(to)?.parent === parent ? parent : undefined;
  };
  const arrow = (group: (typeof groups)[number], indent: string) => {
    const from = group.from === ANY_STATE ? ANY_STATE : mermaidId(group.from);
    const label = group.edges.map((edge) => mermaidText(counted(edge, edgeText(edge)))).join('<br/>');
    return `${indent}${from} --> ${mermaidId(group.to)} : ${label}`;
  };
  const stateLines = (node: ChartNode, indent: string): string[] => {
    const details = [
      ...(node.entry.length > 0 ? [`entry / ${node.entry.join(', ')}`] : []),
      ...(node.invoke ? [`invoke ${node.invoke.join(', ')}`] : []),
    ];
    const id = mermaidId(node.id);
    const title = node.parent ? node.id.slice(node.parent.length + 1) : node.id.startsWith(STUB) ? node.id.slice(STUB.length) : node.id;
    const inner = (node as ViewNode).inner;
    if (inner) details.push(`${inner.states} states, ${inner.transitions} transitions inside`);
    // Targetless transitions are listed inside their state, as UML draws internal transitions.
    const internal = graph.edges
      .filter((e) => e.from === node.id && e.internal && e.kind !== 'root')
      .map((edge) => mermaidText(counted(edge, `${edgeText(edge)} (stays)`)));
    const notes = [...(details.length > 0 ? [mermaidText(details.join(' · '))] : []), ...internal];
    if (!node.children) return [`${indent}state "${title}" as ${id}`, ...notes.map((n) => `${indent}${id} : ${n}`)];
    const children = node.children.map((c) => nodes.get(c)).filter((c): c is ChartNode => c !== undefined);
    return [
      `${indent}state ${id} {`,
      ...children.flatMap((child) => stateLines(child, `${indent}  `)),
      ...children.filter((c) => c.initial).map((c) => `${indent}  [*] --> ${mermaidId(c.id)}`),
      ...groups.filter((g) => home(g.from, g.to) === node.id).map((g) => arrow(g, `${indent}  `)),
      `${indent}}`,
      // A composite state's own entry actions: a note beside its box.
      ...notes.map((n) => `${indent}note right of ${id} : ${n}`),
    ];
  };
  const lines = ['stateDiagram-v2', `  %% generated from machines/ by src/diagram (npm run diagrams); do not edit`];
  for (const node of graph.nodes.filter((n) => !n.parent)) lines.push(...stateLines(node, '  '));
  if (graph.edges.some((e) => e.kind === 'root')) {
    const invoke = graph.invoke ? ` · invoke ${graph.invoke.join(', ')}` : '';
    lines.push(`  state "any state (${graph.id})" as ${ANY_STATE}`);
    lines.push(`  ${ANY_STATE} : ${mermaidText(`handlers of every state${invoke}`)}`);
  }
  for (const node of graph.nodes.filter((n) => n.initial && !n.parent)) lines.push(`  [*] --> ${mermaidId(node.id)}`);
  for (const group of groups.filter((g) => home(g.from, g.to) === undefined)) lines.push(arrow(group, '  '));
  for (const node of graph.nodes.filter((n) => n.final)) lines.push(`  ${mermaidId(node.id)} --> [*]`);
  lines.push(`  classDef transient fill:#f6f6f6,stroke-dasharray:4 3`);
  lines.push(`  classDef root fill:#fff,stroke-dasharray:2 2`);
  const transient = transientStates(graph);
  if (transient.length > 0) lines.push(`  class ${transient.map(mermaidId).join(',')} transient`);
  if (graph.edges.some((e) => e.kind === 'root')) lines.push(`  class ${ANY_STATE} root`);
  return `${lines.join('\n')}\n`;
}

/**
 * States an actor passes through without resting: an unguarded `always` branch always leaves, and
 * nothing is invoked or spawned to wait on (a state that spawns has an `always` that stays).
 * They appear in microsteps and in the trace, never in snapshots.
 */
export function transientStates(graph: ChartGraph): string[] {
  const always = (id: string) => graph.edges.filter((e) => e.from === id && e.kind === 'always');
  return graph.nodes
    .filter((n) => !n.invoke && always(n.id).some((e) => !e.guard && !e.internal) && !always(n.id).some((e) => e.internal))
    .map((n) => n.id);
}
