import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeJson } from '../support/engine-harness.js';
import { runCli } from '../support/run-cli.js';

describe('xagent inspect --export', () => {
  const home = tempDir('xagent-export-');
  let id = '';

  beforeAll(async () => {
    const workspace = tempDir('xagent-export-ws-');
    writeFileSync(path.join(workspace, 'a.txt'), 'a\n');
    const script = writeJson(path.join(home, 'script.json'), {
      responses: [
        { content: [{ type: 'tool_use', name: 'read_file', input: { path: 'a.txt' } }] },
        { text: 'done </script><script>alert(1)</script>' },
      ],
    });
    const run = await runCli(['-p', 'read a', '--model-script', script, '--cwd', workspace, '--permission-mode', 'bypassPermissions'], {
      env: { XAGENT_HOME: home },
    });
    expect(run.code, run.stderr).toBe(0);
    [id] = readdirSync(path.join(home, 'sessions')) as [string];
  }, 60_000);

  it('writes one HTML file with the page, the chart and the records inline, and no reference to another file', async () => {
    const file = path.join(home, 'run.html');
    const run = await runCli(['inspect', id, '--export', file], { env: { XAGENT_HOME: home } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Wrote ${file}`);
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|import\s*\{[^}]*\}\s*from/);
    const data = /<script type="application\/json" id="xagent-run">([\s\S]*?)<\/script>/.exec(html)![1]!;
    const parsed = JSON.parse(data) as { chart: { nodes: unknown[] }; records: Array<{ kind: string; text?: string }> };
    expect(parsed.chart.nodes.length).toBeGreaterThanOrEqual(8);
    // A model's text cannot end the data element early: `<` is escaped inside it.
    expect(parsed.records.some((r) => r.kind === 'text' && r.text?.includes('</script><script>alert(1)'))).toBe(true);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
  }, 30_000);

  it('refuses a file in a folder that does not exist, with exit 2', async () => {
    const run = await runCli(['inspect', id, '--export', path.join(home, 'missing', 'run.html')], { env: { XAGENT_HOME: home } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('does not exist');
  }, 30_000);
});
