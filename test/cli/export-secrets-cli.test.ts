import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { runCli } from '../support/run-cli.js';
import { assertBuilt } from '../sessions/cli.js';

/**
 * Issue 38: `xagent inspect <session> --export` made later, in a shell without the key, used to
 * carry a key that does not look like one (no `sk-ant-` prefix) into the HTML. The session keeps
 * the key's fingerprint (never the key), and the export finds and removes it.
 */

beforeAll(assertBuilt);
const api = useFakeApi();
const KEY = 'corp-gateway-key-7Hq2Lx9Pw4';

describe('issue 38: an export made without the key in the environment', () => {
  it('does not carry the key the session recorded; the rest of the prompt is there (the control)', async () => {
    const env = { ...(await api.start([{ text: `noted: ${KEY}` }])), ANTHROPIC_API_KEY: KEY };
    const run = await runCli(['-p', `remember the words blue-harbour and ${KEY}`, '--output-format', 'json'], { env, cwd: api.workspace });
    expect(run.code, run.stderr).toBe(0);
    const id = (JSON.parse(run.stdout) as { session_id: string }).session_id;
    const secrets = readFileSync(path.join(api.home, 'sessions', id, 'secrets.json'), 'utf8');
    expect(secrets).not.toContain(KEY);

    const file = path.join(api.workspace, 'run.html');
    const exported = await runCli(['inspect', id, '--export', file], { env: { XAGENT_HOME: api.home }, cwd: api.workspace });
    expect(exported.code, exported.stderr).toBe(0);
    const html = readFileSync(file, 'utf8');
    expect(html).toContain('blue-harbour');
    expect(html).not.toContain(KEY);
    expect(html).not.toContain(KEY.slice(4));
  });
});
