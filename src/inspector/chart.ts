import { ENGINE_STATES } from '../../machines/query-engine.js';

/** A point in the chart's coordinates (elkjs' shape). */
export interface Point {
  x: number;
  y: number;
}

/** What `/api/chart` sends and the page draws: positioned states and routed transitions. */
export interface ChartLayout {
  width: number;
  height: number;
  nodes: Array<{ id: string; x: number; y: number; width: number; height: number; initial?: boolean; final?: boolean }>;
  edges: Array<{
    id: string;
    from: string;
    to: string;
    /** The event type; `''` for an eventless transition. */
    event: string;
    guard?: string;
    label?: string;
    labelPos?: Point;
    sections: Array<{ startPoint: Point; endPoint: Point; bendPoints?: Point[] }>;
  }>;
}

/**
 * Stand-in until the diagram module lands: the eight states on a grid, no routed transitions.
 * The page draws it the same way; only the edges are missing.
 */
export function placeholderChart(): ChartLayout {
  const w = 150;
  const h = 40;
  const nodes = ENGINE_STATES.map((id, k) => ({
    id,
    x: 20 + (k % 4) * (w + 40),
    y: 20 + Math.floor(k / 4) * (h + 60),
    width: w,
    height: h,
    ...(id === 'build_context' ? { initial: true } : {}),
    ...(id === 'done' ? { final: true } : {}),
  }));
  return { width: 20 + 4 * (w + 40), height: 20 + 2 * (h + 60), nodes, edges: [] };
}
