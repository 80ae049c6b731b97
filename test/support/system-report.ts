import { skippedHere } from './system-packages.js';

/**
 * Vitest global setup: at the end of `npm test`, says which tests skipped for want of a system
 * package, and how to install it, so a green run on a bare machine does not hide what it left out.
 */
export function teardown(): void {
  const skipped = skippedHere();
  if (skipped.length === 0) return;
  const lines = skipped.map(({ why }) => `  - skipped ${why}`);
  process.stderr.write(`\nSystem packages missing on this machine (CI installs them, see .ci/run):\n${lines.join('\n')}\n`);
}
