import { defineConfig } from 'vitest/config';
import { SLOW } from './test/suites.js';

// The fast suite (`npm test`); test/suites.ts says what runs in `npm run test:slow` instead.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The fuzz runs in both, at full size in the slow suite (FUZZ_SIZE).
    exclude: ['**/node_modules/**', ...SLOW.filter((file) => file !== 'test/permissions/bash-fuzz.test.ts')],
    // Says at the end which tests skipped for want of a system package (ripgrep, bubblewrap, Chromium).
    globalSetup: ['test/support/system-report.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
