import { eventLabel, type ChartGraph } from '../../machines/chart-graph.js';
import type { ViewGraph } from './chart-view.js';

const cell = (text: string) => text.replaceAll('|', '\\|');

/**
 * A view as Markdown for a pull request or a wiki: the Mermaid drawing (GitHub renders it) and a
 * table of what each arrow stands for, by stable transition id.
 * @example viewMarkdown(view, toMermaid(view)).startsWith('## The chart: overview') // true
 */
export function viewMarkdown(graph: ChartGraph | ViewGraph, mermaid: string): string {
  const view = 'view' in graph ? graph.view : 'chart';
  const rows = graph.edges.map((e) => {
    const members = 'members' in e ? (e.members as string[]) : [e.id];
    const from = e.kind === 'root' ? 'any state' : e.from;
    return `| ${cell(from)} | ${cell(e.to)} | \`${cell(eventLabel(e))}\`${e.guard ? ` \`[${cell(e.guard)}]\`` : ''} | ${members.map((m) => `\`${cell(m)}\``).join('<br>')} |`;
  });
  return [
    `## The chart: ${view}`,
    '',
    `Generated from \`machines/\` (chart ${graph.fingerprint}) by \`xagent diagram\`.`,
    '',
    '```mermaid',
    mermaid.trimEnd(),
    '```',
    '',
    '| from | to | on | transitions |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
