import { existsSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { ChartGraph } from '../../machines/chart-graph.js';
import { LABEL_MODES, type LabelMode } from '../diagram/chart-view.js';
import { parseSize, type Size } from '../diagram/size.js';
import { BINARY_FORMATS, DIAGRAM_FORMATS, type DiagramFormat } from '../diagram/formats.js';
import { parseChoice } from '../run/parse-options.js';
import { UsageError } from './exit-codes.js';

interface RawDiagramOptions {
  format: string;
  fromSessions?: boolean;
  since?: string;
  depth?: string;
  state?: string;
  labels?: string;
  size?: string;
  out?: string;
  diff?: string[];
}

/** What `xagent diagram` draws, read from its flags once. */
export interface DiagramRequest {
  format: DiagramFormat;
  depth?: number;
  state?: string;
  labels?: LabelMode;
  size?: Size;
  out?: string;
  /** `--diff`: a git ref, `A..B`, or two chart JSON files. */
  compare?: string[];
}

/** The flags as a request; every mistake is a usage error that says what would do. */
export function parseDiagramFlags(raw: RawDiagramOptions): DiagramRequest {
  const format = parseChoice(raw.format, DIAGRAM_FORMATS, '--format');
  const depth = raw.depth === undefined ? undefined : Number(raw.depth);
  if (depth !== undefined && !(Number.isInteger(depth) && depth >= 1))
    throw new UsageError(`--depth "${raw.depth}" must be a whole number from 1 (1: the eight top-level states)`);
  if (depth !== undefined && raw.state !== undefined) throw new UsageError('--depth and --state are two views: give one');
  const size = raw.size === undefined ? undefined : parseSize(raw.size);
  if (raw.size !== undefined && !size) throw new UsageError(`--size "${raw.size}" must be WIDTHxHEIGHT in pixels, such as 1920x1080`);
  if (raw.diff && raw.diff.length > 2) throw new UsageError('--diff takes a git ref, A..B, or two chart JSON files');
  return {
    format,
    ...(depth !== undefined ? { depth } : {}),
    ...(raw.state !== undefined ? { state: raw.state } : {}),
    ...(raw.labels !== undefined ? { labels: parseChoice(raw.labels, LABEL_MODES, '--labels') } : {}),
    ...(size ? { size } : {}),
    ...(raw.out !== undefined ? { out: raw.out } : {}),
    ...(raw.diff ? { compare: raw.diff } : {}),
  };
}

/** Writes a drawing to `--out`, or to stdout when it is text or stdout is not a terminal. */
export function writeDrawing(data: string | Uint8Array, request: Pick<DiagramRequest, 'format' | 'out'>, stdout: NodeJS.WriteStream): void {
  if (request.out !== undefined) {
    writeFileSync(request.out, data);
    return;
  }
  if (BINARY_FORMATS.has(request.format) && stdout.isTTY)
    throw new UsageError(`--format ${request.format} is a binary file: write it with --out chart.${request.format} or a redirect`);
  stdout.write(typeof data === 'string' && !data.endsWith('\n') ? `${data}\n` : data);
}

/**
 * The two charts `--diff` names, and their diff: `<ref>` against the chart this xagent runs,
 * `A..B` between two refs, or two chart JSON files (a `.json` file also stands for one side).
 * @example const diff = await loadDiff(['main..HEAD'], process.cwd(), graph);
 */
export async function loadDiff(specs: string[], cwd: string, running: ChartGraph) {
  const { chartAtRef, chartFromFile } = await import('../diagram/chart-at-ref.js');
  const { diffCharts } = await import('../diagram/chart-diff.js');
  const side = (spec: string) => (spec.endsWith('.json') && existsSync(spec) ? chartFromFile(spec) : chartAtRef(spec, cwd));
  const range = specs.length === 1 ? /^(.+?)\.\.(.+)$/.exec(specs[0]) : null;
  if (range?.[2].startsWith('.')) throw new UsageError(`--diff "${specs[0]}": use A..B (two dots), not A...B`);
  const [before, after] = specs.length === 2 ? specs : range ? [range[1], range[2]] : [specs[0], undefined];
  const diff = diffCharts(await side(before), after === undefined ? running : await side(after));
  const labels = { before: before, after: after ?? 'this chart', command: `xagent diagram --diff ${specs.join(' ')}` };
  return { ...diff, labels };
}

/**
 * The coverage of the generated paths, when the diff's newer side is the chart this xagent runs
 * (the only one whose paths it can replay): what a summary for a pull request reports.
 */
export async function diffCoverage(
  diff: { after: string; union: ChartGraph; states: { added: string[] }; transitions: { added: string[] } },
  running: ChartGraph,
) {
  if (diff.after !== running.fingerprint) return [];
  const { generatePaths } = await import('../paths/generate-paths.js');
  const { pathsReport } = await import('../paths/path-coverage.js');
  // The older chart's totals: the union less what was added.
  const totals: Record<string, number> = {
    states: diff.union.nodes.length - diff.states.added.length,
    transitions: diff.union.edges.length - diff.transitions.added.length,
  };
  return pathsReport(generatePaths()).coverage.map((row) => ({
    what: row.what,
    ...(totals[row.what] !== undefined ? { before: { total: totals[row.what] } } : {}),
    after: { covered: row.covered, total: row.total },
  }));
}

/**
 * `xagent diagram`: the chart, generated from the machine, whole or as a view (`--depth 1`,
 * `--state call_model`), in a format a person opens (`svg`, `png`, `pdf`, `markdown`) or a tool reads.
 * @example registerDiagramCommand(program);
 */
export function registerDiagramCommand(program: Command): void {
  program
    .command('diagram')
    .description("the engine's statechart, generated from the machine: whole, an overview, one state, or the diff of two versions")
    .option('--format <format>', DIAGRAM_FORMATS.join(', '), 'mermaid')
    .option('--depth <n>', 'collapse states below this depth: 1 is the overview of the eight top-level states')
    .option('--state <path>', 'one state expanded (call_model, ask_permission.deciding), transitions in and out as stubs')
    .option('--labels <mode>', `what an arrow's label shows: ${LABEL_MODES.join(', ')} (default: guard in a view, full otherwise)`)
    .option('--size <WxH>', 'the picture size in pixels (a view fits 1920x1080 by default)')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--diff <refs...>', 'what changed between two charts: a git ref (against this chart), A..B, or two chart JSON files')
    .option('--from-sessions', 'a heat map: how often each transition was taken in the recorded sessions')
    .option('--since <date>', 'with --from-sessions: only steps from this date on (2026-11-30)')
    .action(async (raw: RawDiagramOptions) => {
      const request = parseDiagramFlags(raw);
      if (raw.since !== undefined && !raw.fromSessions) throw new UsageError('--since needs --from-sessions');
      if (raw.fromSessions && request.compare) throw new UsageError('--diff and --from-sessions are two pictures: give one');
      if (raw.fromSessions) {
        const { diagramFromSessions } = await import('./diagram-sessions.js');
        await diagramFromSessions({ ...request, since: raw.since, stdout: process.stdout, stderr: process.stderr });
        return;
      }
      // Loaded here so that a task run never pays for the diagram code and elkjs.
      const { renderDiagram } = await import('../diagram/render.js');
      const { chartGraph } = await import('../../machines/chart-graph.js');
      const { queryEngine } = await import('../../machines/query-engine.js');
      const graph = chartGraph(queryEngine);
      if (request.state !== undefined && !graph.nodes.some((n) => n.id === request.state))
        throw new UsageError(
          `--state "${request.state}" is not a state of the chart; its states: ${graph.nodes.map((n) => n.id).join(', ')}`,
        );
      const loaded = request.compare ? await loadDiff(request.compare, process.cwd(), graph) : undefined;
      const diff = loaded && request.format === 'markdown' ? { ...loaded, coverage: await diffCoverage(loaded, graph) } : loaded;
      const drawn = diff?.union ?? graph;
      if (request.state !== undefined && !drawn.nodes.some((n) => n.id === request.state))
        throw new UsageError(
          `--state "${request.state}" is not a state of the chart; its states: ${drawn.nodes.map((n) => n.id).join(', ')}`,
        );
      writeDrawing(await renderDiagram(request.format, { ...request, graph, ...(diff ? { diff } : {}) }), request, process.stdout);
    });
}
