import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartGraph, fingerprintOf, type ChartEdge, type ChartGraph } from '../../machines/chart-graph.js';
import { queryEngine } from '../../machines/query-engine.js';
import { runCli } from '../support/run-cli.js';

/**
 * `xagent diagram --diff`: two versions of a chart matched by stable id. Pinned twice: on two
 * commits of a small chart in a temporary git repository (the chart at each ref is compiled from
 * `machines/`), and on two chart JSON files derived from the real chart.
 */

/** A three-state chart; `version` 2 adds `b --RETRY--> a` and removes `b --FAIL--> c`. */
const smallChart = (version: 1 | 2) => `import { setup } from 'xstate';
export const queryEngine = setup({ guards: { ok: () => true } }).createMachine({
  id: 'small',
  initial: 'a',
  states: {
    a: { on: { GO: { target: 'b' } } },
    b: { on: { ${version === 1 ? "FAIL: { target: 'c' }" : "RETRY: { target: 'a' }"}, DONE: { guard: 'ok', target: 'c' } } },
    c: { type: 'final' },
  },
});
`;

const fromXml = (text: string) => text.replaceAll('&gt;', '>').replaceAll('&lt;', '<').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
const marked = (svg: string, change: string) =>
  [...svg.matchAll(new RegExp(`<g class="edge [^"]*diff-${change}[^"]*" data-edge="([^"]+)"`, 'g'))].map((m) => fromXml(m[1]!));

describe('xagent diagram --diff', () => {
  let repo: string;
  beforeAll(() => {
    repo = mkdtempSync(path.join(tmpdir(), 'xagent-diff-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    mkdirSync(path.join(repo, 'machines'));
    for (const version of [1, 2] as const) {
      writeFileSync(path.join(repo, 'machines', 'query-engine.ts'), smallChart(version));
      git('add', '-A');
      git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', `v${version}`);
    }
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('between two commits lists the added and the removed transition by id in the Markdown summary, and nothing else', async () => {
    const run = await runCli(['diagram', '--diff', 'HEAD~1..HEAD', '--format', 'markdown'], { cwd: repo });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('## Chart diff: HEAD~1 → HEAD');
    expect(run.stdout).toContain('| transitions | 1 | 1 | 0 |');
    expect(run.stdout).toContain('- added `b:RETRY>a`');
    expect(run.stdout).toContain('- removed `b:FAIL>c`');
    expect(run.stdout.match(/^- (added|removed|changed) /gm)).toHaveLength(2);
  });

  it('between two commits colours exactly those two transitions on the overview and fades the rest', async () => {
    const run = await runCli(['diagram', '--diff', 'HEAD~1..HEAD', '--format', 'svg'], { cwd: repo });
    expect(run.code).toBe(0);
    expect(marked(run.stdout, 'added')).toEqual(['b:RETRY>a']);
    expect(marked(run.stdout, 'removed')).toEqual(['b:FAIL>c']);
    expect(marked(run.stdout, 'changed')).toEqual([]);
    expect(run.stdout).toMatch(/<g class="edge [^"]*faded" data-edge="a:GO&gt;b"/);
    expect(run.stdout).toMatch(/<g class="edge [^"]*faded" data-edge="b:DONE\[ok\]&gt;c"/);
  });

  it('of a commit with itself says nothing changed', async () => {
    const run = await runCli(['diagram', '--diff', 'HEAD..HEAD', '--format', 'markdown'], { cwd: repo });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nothing changed');
    expect(run.stdout).not.toMatch(/^- (added|removed|changed) /m);
  });

  it('names a ref that is not there', async () => {
    const run = await runCli(['diagram', '--diff', 'no-such-ref', '--format', 'markdown'], { cwd: repo });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no-such-ref');
  });

  it('between two chart JSON files of the real chart colours the added and removed transitions and lists their ids', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xagent-diff-json-'));
    try {
      const before = chartGraph(queryEngine);
      const removed = before.edges.find((e) => e.id === 'recover:always>append_tool_result.collected') ?? before.edges.at(-1)!;
      const added: ChartEdge = { ...removed, id: `${removed.from}:always[reviewAsked]>done`, to: 'done', guard: 'reviewAsked' };
      const edges = [...before.edges.filter((e) => e !== removed), added];
      const after: ChartGraph = { ...before, edges, fingerprint: fingerprintOf({ ...before, edges }) };
      const [a, b] = [path.join(dir, 'before.json'), path.join(dir, 'after.json')];
      writeFileSync(a, JSON.stringify(before));
      writeFileSync(b, JSON.stringify(after));
      const markdown = await runCli(['diagram', '--diff', a, b, '--format', 'markdown']);
      expect(markdown.code).toBe(0);
      expect(markdown.stdout).toContain(`- added \`${added.id}\``);
      expect(markdown.stdout).toContain(`- removed \`${removed.id}\``);
      expect(markdown.stdout).toContain('- added `reviewAsked`');
      expect(markdown.stdout.match(/^- (added|removed|changed) `[^`]*[:>]/gm)).toHaveLength(2);
      expect(markdown.stdout).toContain(`--state ${removed.from.split('.')[0]}`);
      const svg = await runCli(['diagram', '--diff', a, b, '--state', removed.from.split('.')[0]!, '--format', 'svg']);
      expect(svg.code).toBe(0);
      const members = (change: string) =>
        [...svg.stdout.matchAll(new RegExp(`<g class="edge [^"]*diff-${change}[^"]*"[^>]*data-members="([^"]+)"`, 'g'))].map((m) =>
          fromXml(m[1]!),
        );
      expect(members('added')).toEqual([added.id]);
      expect(members('removed')).toEqual([removed.id]);
      expect(members('changed')).toEqual([]);
      const same = await runCli(['diagram', '--diff', a, a, '--format', 'markdown']);
      expect(same.stdout).toContain('Nothing changed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
