import { placeholderChart, type ChartLayout } from './chart.js';

/** The layout `/api/chart` serves. */
export async function inspectorChart(): Promise<ChartLayout> {
  return placeholderChart();
}
