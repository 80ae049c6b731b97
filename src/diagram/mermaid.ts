import { eventLabel, type ChartEdge, type ChartGraph } from './chart-graph.js';

/** The edge's label as in the chart: `event [guard] / actions`. */
export function edgeText(edge: ChartEdge): string {
  const guard = edge.guard ? ` [${edge.guard}]` : '';
  const actions = edge.actions.length > 0 ? ` / ${edge.actions.join(', ')}` : '';
  return `${eventLabel(edge)}${guard}${actions}`;
}

/** Mermaid's state ids must not contain dots; labels must not contain `:` or `;`. */
const mermaidId = (id: string) => id.replaceAll('.', '__');
const mermaidText = (text: string) => text.replaceAll(';', ',').replaceAll(':', ' ');

/** The pseudo-state that root-level handlers start from: they fire whatever state is active. */
export const ANY_STATE = 'any_state';

/**
 * The chart as a Mermaid `stateDiagram-v2`, with every transition (guards, `always` branches,
 * root handlers drawn from an "any state" box), entry actions and invoked actors as notes.
 * Deterministic: the same chart gives the same text, so the committed file can be diffed.
 * @example toMermaid(chartGraph(queryEngine)).startsWith('stateDiagram-v2') // true
 */
export function toMermaid(graph: ChartGraph): string {
  const lines = ['stateDiagram-v2', `  %% generated from machines/ by src/diagram (npm run diagrams); do not edit`];
  for (const node of graph.nodes) {
    const details = [
      ...(node.entry.length > 0 ? [`entry / ${node.entry.join(', ')}`] : []),
      ...(node.invoke ? [`invoke ${node.invoke.join(', ')}`] : []),
    ];
    lines.push(`  state "${node.id}" as ${mermaidId(node.id)}`);
    if (details.length > 0) lines.push(`  ${mermaidId(node.id)} : ${mermaidText(details.join(' · '))}`);
  }
  const rootEdges = graph.edges.filter((e) => e.kind === 'root');
  if (rootEdges.length > 0) {
    const invoke = graph.invoke ? ` · invoke ${graph.invoke.join(', ')}` : '';
    lines.push(`  state "any state (${graph.id})" as ${ANY_STATE}`);
    lines.push(`  ${ANY_STATE} : ${mermaidText(`root handlers${invoke}`)}`);
  }
  for (const node of graph.nodes.filter((n) => n.initial)) lines.push(`  [*] --> ${mermaidId(node.id)}`);
  for (const edge of graph.edges) {
    const from = edge.kind === 'root' ? ANY_STATE : mermaidId(edge.from);
    const internal = edge.internal ? ' (stays)' : '';
    lines.push(`  ${from} --> ${mermaidId(edge.to)} : ${mermaidText(edgeText(edge) + internal)}`);
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
 * nothing is invoked to wait on. They appear in microsteps and in the trace, never in snapshots.
 */
export function transientStates(graph: ChartGraph): string[] {
  return graph.nodes
    .filter((n) => !n.invoke && graph.edges.some((e) => e.from === n.id && e.kind === 'always' && !e.guard))
    .map((n) => n.id);
}
