import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph, type ChartGraph } from './chart-graph.js';
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
 * @example process.stdout.write(await renderDiagram('mermaid'));
 */
export async function renderDiagram(format: DiagramFormat): Promise<string> {
  const graph = chartGraph(queryEngine);
  switch (format) {
    case 'mermaid':
      return toMermaid(graph);
    case 'svg':
      return toSvg(graph);
    case 'json':
      return toJSON(graph);
    default: {
      const unreachable: never = format;
      throw new Error(`unknown diagram format: ${String(unreachable)}`);
    }
  }
}
