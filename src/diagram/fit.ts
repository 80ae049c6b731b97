import type { ChartGraph } from '../../machines/chart-graph.js';
import { layoutChart, type ChartLayout, type LayoutOptions } from './layout.js';
import type { Size } from './size.js';

/** How much a layout is scaled to fit `size` (below 1: shrunk). */
export const fitScale = (layout: Pick<ChartLayout, 'width' | 'height'>, size: Size) =>
  Math.min(size.width / layout.width, size.height / layout.height);

// Down the page or across, and ELK's three ways of placing a layer's nodes: which one is the most
// legible depends on the view's shape, so each is tried and measured rather than guessed.
const CANDIDATES: Array<Pick<LayoutOptions, 'direction' | 'elk'>> = (['DOWN', 'RIGHT'] as const).flatMap((direction) =>
  ['SIMPLE', 'NETWORK_SIMPLEX', 'BRANDES_KOEPF'].map((strategy) => ({
    direction,
    elk: { 'elk.layered.nodePlacement.strategy': strategy },
  })),
);

/**
 * The layout of a view that is drawn largest in `size`: each direction and node placement is laid
 * out and the one that needs the least shrinking wins (the first on a tie, so the result is stable).
 * @example const layout = await fitLayout(chartView(graph, { depth: 1 }), SLIDE, { type: scaledType({ title: 2.4 }) });
 */
export async function fitLayout(graph: ChartGraph, size: Size, options: Omit<LayoutOptions, 'direction' | 'elk'>): Promise<ChartLayout> {
  let best: ChartLayout | undefined;
  for (const candidate of CANDIDATES) {
    const layout = await layoutChart(graph, { ...options, ...candidate });
    if (!best || fitScale(layout, size) > fitScale(best, size) + 1e-9) best = layout;
  }
  return best!;
}
