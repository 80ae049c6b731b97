import type { Summary } from './stats.js';

/** One line of the table: a measured figure, its baseline from the same run, and the target. */
export interface Row {
  name: string;
  unit: string;
  value: Summary;
  /** What the figure is compared against, measured in the same run. */
  baseline?: { name: string; value: Summary };
  /** Human-readable target, e.g. "< 100 µs"; absent when the issue sets none. */
  target?: string;
  /** Whether the target is met; undefined when there is no target. */
  met?: boolean;
  /** Set instead of a value when the benchmark could not run here (e.g. rg not installed). */
  skipped?: string;
}

export const TABLE_COLUMNS = ['benchmark', 'median', 'min', 'max', 'baseline (median)', 'ratio', 'target', 'met?'] as const;

/** Subject median over baseline median, or undefined without a baseline. */
export function ratioOf(row: Row): number | undefined {
  if (!row.baseline || row.baseline.value.median === 0) return undefined;
  return row.value.median / row.baseline.value.median;
}

function num(x: number): string {
  const abs = Math.abs(x);
  if (abs >= 100) return x.toFixed(0);
  if (abs >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

/** The cells of one row, in TABLE_COLUMNS order. */
export function cells(row: Row): string[] {
  if (row.skipped) return [row.name, '-', '-', '-', '-', '-', row.target ?? '', `skipped: ${row.skipped}`];
  const u = row.unit ? ` ${row.unit}` : '';
  const ratio = ratioOf(row);
  return [
    row.name,
    `${num(row.value.median)}${u}`,
    num(row.value.min),
    num(row.value.max),
    row.baseline ? `${num(row.baseline.value.median)}${u} ${row.baseline.name}` : '',
    ratio === undefined ? '' : `${ratio.toFixed(2)}×`,
    row.target ?? '',
    row.met === undefined ? '' : row.met ? 'yes' : 'NO',
  ];
}

/**
 * Formats rows as one Markdown table (readable in a terminal and pasteable into a README).
 * @example console.log(formatTable([{ name: 'x', unit: 'ms', value: summarize([1]) }]))
 */
export function formatTable(rows: readonly Row[]): string {
  const grid = [[...TABLE_COLUMNS], ...rows.map(cells)];
  const widths = TABLE_COLUMNS.map((_, c) => Math.max(...grid.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return [line(grid[0]!), rule, ...grid.slice(1).map(line)].join('\n');
}
