import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/engine-harness.js';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';

/**
 * Issue 31 end to end: the built CLI, the fake Anthropic API asking for one bash call, no TTY,
 * and a real directory outside the workspace that must not get a PWNED file. Each form is also
 * run under `--allow bash` to show it does write PWNED when it is let through.
 */

const api = useFakeApi();

interface Form {
  name: string;
  command: (out: string) => string;
  allow: string;
  deny: string;
  /** HOME for the run (the form writes through `~`). */
  homeIsOutside?: boolean;
}

const FORMS: Form[] = [
  {
    name: 'H1: a comment swallowing a continuation',
    command: (out) => `echo hello #\\\ntouch ${out}/PWNED`,
    allow: 'bash(echo *)',
    deny: 'bash(touch*)',
  },
  {
    name: 'H1: a continuation inside "$(',
    command: (out) => `echo "$\\\n(touch ${out}/PWNED)"`,
    allow: 'bash(echo *)',
    deny: 'bash(touch*)',
  },
  {
    name: 'H1: under git status*',
    command: (out) => `git status #\\\ntouch ${out}/PWNED`,
    allow: 'bash(git status*)',
    deny: 'bash(touch*)',
  },
  {
    name: 'H1: under npm test*',
    command: (out) => `npm test #\\\ntouch ${out}/PWNED`,
    allow: 'bash(npm test*)',
    deny: 'bash(touch*)',
  },
  {
    name: 'H1: a # right after a quote',
    command: (out) => `echo 'a'#x; touch ${out}/PWNED`,
    allow: 'bash(echo *)',
    deny: 'bash(touch*)',
  },
  {
    name: 'H2: a redirection after a continuation',
    command: (out) => `echo x >>\\\n${out}/PWNED`,
    allow: 'bash(echo *)',
    deny: 'write_file(/**)',
  },
  {
    name: 'H2: a redirection into ~ after a continuation',
    command: () => 'echo x >>\\\n~/PWNED',
    allow: 'bash(echo *)',
    deny: 'write_file(/**)',
    homeIsOutside: true,
  },
  {
    name: 'M3: npm test --node-options',
    command: (out) => `npm test --node-options=--require=${out}/evil.cjs`,
    allow: 'bash(npm test*)',
    deny: 'bash(npm test --node-options*)',
  },
];

/** Runs the CLI for one bash call from the fake model; true if PWNED appeared outside the workspace. */
async function attempt(form: Form, flags: string[]): Promise<{ code: number | null; stderr: string; pwned: boolean }> {
  const out = tempDir('xagent-outside-');
  writeFileSync(path.join(out, 'evil.cjs'), `require('fs').writeFileSync(${JSON.stringify(path.join(out, 'PWNED'))}, '')`);
  writeFileSync(path.join(api.workspace, 'package.json'), JSON.stringify({ name: 'ws', scripts: { test: 'node -e 0' } }));
  const env = await api.start([
    { content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: form.command(out) } }] },
    { text: 'done' },
  ]);
  const home = form.homeIsOutside ? { HOME: out } : {};
  const run = await runCli(['-p', 'go', '--cwd', api.workspace, '--stop-on-denial', ...flags], { env: { ...env, ...home } });
  return { code: run.code, stderr: run.stderr, pwned: existsSync(path.join(out, 'PWNED')) };
}

describe('issue 31 through the built CLI (no TTY, fake API)', () => {
  it.each(FORMS)(
    '$name: writes PWNED when bash is allowed outright (the form is real)',
    async (form) => {
      const run = await attempt(form, ['--allow', 'bash']);
      expect(run.pwned).toBe(true);
    },
    60_000,
  );

  it.each(FORMS)(
    '$name: asks (a denial without a TTY) in default and acceptEdits modes; nothing written',
    async (form) => {
      for (const mode of ['default', 'acceptEdits']) {
        const run = await attempt(form, ['--permission-mode', mode, '--allow', form.allow]);
        expect(run.pwned).toBe(false);
        expect(run.code).toBe(6);
        expect(run.stderr).toContain('bash');
      }
    },
    60_000,
  );

  it.each(FORMS)(
    '$name: is denied in bypassPermissions mode by a deny rule; nothing written',
    async (form) => {
      const run = await attempt(form, ['--permission-mode', 'bypassPermissions', '--deny', form.deny]);
      expect(run.pwned).toBe(false);
      expect(run.code).toBe(6);
      expect(run.stderr).toContain(form.deny);
    },
    60_000,
  );
});
