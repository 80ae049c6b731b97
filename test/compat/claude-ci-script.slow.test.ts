import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeResponse } from '../support/fake-anthropic.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { CLI } from '../support/run-cli.js';

/**
 * Issue 39's "done when": a CI script written for `claude -p --output-format json`, which reads
 * `.result`, `.is_error`, `.total_cost_usd` and `.permission_denials`, runs unchanged against xagent
 * (`claude` on the PATH is xagent, XAGENT_TRUST=1): a 21-call task in a workspace with
 * `.claude/settings.json` ends final_answer. Before, it failed three times: the trust gate's empty
 * stdout, then 8 rounds, then 12 tool calls; and a refused call ended the task.
 */
const api = useFakeApi();

/** The script as a Claude Code user writes it; not one word of it knows about xagent. */
const CI_SCRIPT = `#!/usr/bin/env bash
set -euo pipefail
out=$(claude -p "Fix the failing test, run the tests, and say what you changed" --output-format json)
if [ "$(jq -r .is_error <<<"$out")" = "true" ]; then
  echo "claude failed: $(jq -r .result <<<"$out")" >&2
  exit 1
fi
echo "result: $(jq -r .result <<<"$out")"
printf 'cost: %.6f\\n' "$(jq -r .total_cost_usd <<<"$out")"
echo "denied: $(jq -r '.permission_denials | length' <<<"$out")"
jq -r '.permission_denials[] | "  \\(.tool_name): \\(.tool_input.command)"' <<<"$out"
`;

let id = 0;
const use = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, id: `toolu_${++id}`, name, input });
const bash = (command: string) => use('bash', { command });
const read = (file: string) => use('read_file', { path: file });

/** 21 calls over 13 rounds: more than the old -p limits (8 rounds, 12 calls) allowed. */
function twentyOneCalls(): FakeResponse[] {
  const rounds = [
    [bash('ls'), bash('git status')],
    [bash('grep -r TODO .'), bash("find . -name '*.js'")],
    [read('package.json'), read('src/sum.js'), read('test.js')],
    [bash('FOO=1 npm test')],
    [use('edit_file', { path: 'src/sum.js', old_string: 'a - b', new_string: 'a + b' })],
    [bash('npm test')],
    // Denied by the project's rule: the model is told, the task goes on.
    [bash('rm -rf node_modules')],
    [bash('git diff')],
    [read('src/sum.js'), bash('wc -l src/sum.js')],
    [bash('cat package.json | head -5')],
    [bash('npm test -- --verbose')],
    [bash('git status --short'), bash('ls src')],
    [bash('pwd')],
  ];
  return [...rounds.map((content) => ({ content })), { text: 'Fixed src/sum.js (a - b became a + b); the tests pass.' }];
}

function workspace(dir: string): void {
  mkdirSync(path.join(dir, 'src'));
  mkdirSync(path.join(dir, '.claude'));
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', scripts: { test: 'node test.js' } }));
  writeFileSync(path.join(dir, 'src', 'sum.js'), 'module.exports = (a, b) => a - b; // TODO: fix\n');
  writeFileSync(path.join(dir, 'test.js'), "const sum = require('./src/sum.js');\nconsole.log(sum(1, 2) === 3 ? 'ok' : 'FAIL');\n");
  writeFileSync(
    path.join(dir, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash(npm test:*)', 'Edit(src/**)'], deny: ['Bash(rm:*)'] } }),
  );
  execFileSync('git', ['init', '-q'], { cwd: dir });
}

describe('a CI script written for claude -p, pointed at xagent', () => {
  it('runs a 21-call task in a workspace with .claude/settings.json to final_answer, unchanged', async () => {
    workspace(api.workspace);
    const env = await api.start(twentyOneCalls());
    const bin = path.join(api.home, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(path.join(bin, 'claude'), 0o755);
    const script = path.join(api.home, 'ci.sh');
    writeFileSync(script, CI_SCRIPT);

    // Not spawnSync: the fake API answers from this process's event loop.
    const child = spawn('bash', [script], {
      cwd: api.workspace,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: api.home, NO_COLOR: '1', XAGENT_TRUST: '1', ...env },
    });
    const run = { stdout: '', stderr: '', status: null as number | null };
    child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (run.stderr += chunk.toString()));
    run.status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(run.stderr).not.toMatch(/claude failed/);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('result: Fixed src/sum.js (a - b became a + b); the tests pass.');
    expect(run.stdout).toMatch(/cost: 0\.\d{6}\n/);
    expect(run.stdout).toContain('denied: 1\n  Bash: rm -rf node_modules');
    expect(api.fake.requests).toHaveLength(14);
    expect(readFileSync(path.join(api.workspace, 'src', 'sum.js'), 'utf8')).toContain('a + b');
  });
});
