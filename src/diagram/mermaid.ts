import type { ChartEdge, ChartGraph } from './chart-graph.js';
import { ANY_STATE, countLine, edgeGroups, edgeText } from './edge-groups.js';

export { ANY_STATE, edgeText } from './edge-groups.js';

/** Mermaid's state ids must not contain dots; labels must not contain `:` or `;`. */
const mermaidId = (id: string) => id.replaceAll('.', '__');
const mermaidText = (text: string) => text.replaceAll(';', ',').replaceAll(':', ' ');

/**
 * The chart as a Mermaid `stateDiagram-v2`, with every transition (guards, `always` branches,
 * root handlers drawn from an "any state" box), entry actions and invoked actors as notes.
 * Deterministic: the same chart gives the same text, so the committed file can be diffed.
 * @example toMermaid(chartGraph(queryEngine)).startsWith('stateDiagram-v2') // true
 */
export function toMermaid(graph: ChartGraph, options: { counts?: ReadonlyMap<string, number> } = {}): string {
  const { counts } = options;
  const counted = (edge: ChartEdge, text: string) => (counts ? `${text} (${countLine(edge, counts.get(edge.id))})` : text);
  const lines = ['stateDiagram-v2', `  %% generated from machines/ by src/diagram (npm run diagrams); do not edit`];
  for (const node of graph.nodes) {
    const details = [
      ...(node.entry.length > 0 ? [`entry / ${node.entry.join(', ')}`] : []),
      ...(node.invoke ? [`invoke ${node.invoke.join(', ')}`] : []),
    ];
    lines.push(`  state "${node.id}" as ${mermaidId(node.id)}`);
    if (details.length > 0) lines.push(`  ${mermaidId(node.id)} : ${mermaidText(details.join(' · '))}`);
    // Targetless transitions are listed inside their state, as UML draws internal transitions:
    // Mermaid puts a self-loop's label over its neighbours' labels.
    for (const edge of graph.edges.filter((e) => e.from === node.id && e.internal && e.kind !== 'root')) {
      lines.push(`  ${mermaidId(node.id)} : ${mermaidText(counted(edge, `${edgeText(edge)} (stays)`))}`);
    }
  }
  const rootEdges = graph.edges.filter((e) => e.kind === 'root');
  if (rootEdges.length > 0) {
    const invoke = graph.invoke ? ` · invoke ${graph.invoke.join(', ')}` : '';
    lines.push(`  state "any state (${graph.id})" as ${ANY_STATE}`);
    lines.push(`  ${ANY_STATE} : ${mermaidText(`handlers of every state${invoke}`)}`);
  }
  for (const node of graph.nodes.filter((n) => n.initial)) lines.push(`  [*] --> ${mermaidId(node.id)}`);
  // One arrow per pair of states, its transitions one per line: Mermaid places the labels of
  // parallel arrows on top of each other, and the root's handlers are drawn once.
  for (const group of edgeGroups({ ...graph, edges: graph.edges.filter((e) => !e.internal || e.kind === 'root') })) {
    const from = group.from === ANY_STATE ? ANY_STATE : mermaidId(group.from);
    const label = group.edges.map((edge) => mermaidText(counted(edge, edgeText(edge)))).join('<br/>');
    lines.push(`  ${from} --> ${mermaidId(group.to)} : ${label}`);
  }
  for (const node of graph.nodes.filter((n) => n.final)) lines.push(`  ${mermaidId(node.id)} --> [*]`);
  lines.push(`  classDef transient fill:#f6f6f6,stroke-dasharray:4 3`);
  lines.push(`  classDef root fill:#fff,stroke-dasharray:2 2`);
  const transient = transientStates(graph);
  if (transient.length > 0) lines.push(`  class ${transient.map(mermaidId).join(',')} transient`);
  if (rootEdges.length > 0) lines.push(`  class ${ANY_STATE} root`);
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
