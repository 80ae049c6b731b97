import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph, type ChartGraph } from '../../machines/chart-graph.js';
import { toMermaid } from './mermaid.js';
import { toSvg } from './svg.js';

import type { DiagramFormat } from './formats.js';

export { DIAGRAM_FORMATS, type DiagramFormat } from './formats.js';

/** The graph model as pretty JSON, with a trailing newline. */
export function toJSON(graph: ChartGraph): string {
  return `${JSON.stringify(graph, null, 2)}\n`;
}

/**
 * The engine's statechart in one format, generated from the machine (for `xagent diagram`).
 * With `counts` (times each transition was taken), a heat map.
 * @example process.stdout.write(await renderDiagram('mermaid'));
 */
export async function renderDiagram(format: DiagramFormat, options: { counts?: ReadonlyMap<string, number> } = {}): Promise<string> {
  const graph = chartGraph(queryEngine);
  const { counts } = options;
  switch (format) {
    case 'mermaid':
      return toMermaid(graph, { counts });
    case 'svg':
      return toSvg(graph, undefined, { counts });
    case 'json':
      return toJSON(counts ? { ...graph, edges: graph.edges.map((e) => ({ ...e, count: counts.get(e.id) ?? 0 })) } : graph);
    default: {
      const unreachable: never = format;
      throw new Error(`unknown diagram format: ${String(unreachable)}`);
    }
  }
}
