import { defineConfig } from 'vitest/config';
import { SLOW } from './test/suites.js';

// The slow suite (`npm run test:slow`): browsers, pseudo-terminal journeys, Restate, the tarball.
export default defineConfig({
  test: {
    include: SLOW,
    env: { XAGENT_SUITE: 'slow' },
    globalSetup: ['test/support/system-report.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
