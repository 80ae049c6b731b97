import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { useFakeApi } from '../support/fake-api-env.js';
import { EXAMPLE_SCRIPT, runExample } from './example-run.js';

const api = useFakeApi();
// Imports 'xagent-statechart' by name: resolved through package.json `exports` to the built dist/lib/index.js.
const EXAMPLE = fileURLToPath(new URL('../../examples/custom-tool/index.mjs', import.meta.url));

describe('examples/custom-tool', () => {
  it('runs its custom tool, the model gets the result, the inspector answers, and it exits 0', async () => {
    const env = await api.start(EXAMPLE_SCRIPT);
    await runExample({ file: EXAMPLE, workspace: api.workspace, env, fake: () => api.fake });
  }, 60_000);
});
