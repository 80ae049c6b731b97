import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chartFingerprint } from '../../machines/chart-fingerprint.js';
import { inspectorPageDir } from './static-files.js';

/**
 * The inspector's chart layout, laid out once by `npm run diagrams` and shipped with the page
 * (`inspector/chart-layout.json`), keyed by the chart's fingerprint: the first request gets it from
 * disk in milliseconds instead of an ELK layout of several seconds. For another chart (an edited
 * `machines/`, not yet regenerated) the key differs and the layout is computed again.
 */
export const SHIPPED_CHART = 'chart-layout.json';

export interface ShippedChart {
  fingerprint: string;
  chart: unknown;
}

/** The shipped layout when it was laid out for `fingerprint` (the running chart's by default); null otherwise. */
export function shippedChart(fingerprint: string = chartFingerprint(), dir?: string): unknown | null {
  let file: string;
  try {
    file = path.join(dir ?? inspectorPageDir(), SHIPPED_CHART);
  } catch {
    return null;
  }
  if (!existsSync(file)) return null;
  try {
    const shipped = JSON.parse(readFileSync(file, 'utf8')) as Partial<ShippedChart>;
    return shipped.fingerprint === fingerprint && shipped.chart ? shipped.chart : null;
  } catch {
    return null;
  }
}
