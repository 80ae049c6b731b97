/**
 * Fault injection for the kill -9 tests: with `XAGENT_FAULT_KILL_AT=n`, the n-th step of a rewind
 * that changes something on disk kills the process with SIGKILL, exactly as `kill -9` would, so a
 * test can stop a rewind at every point without timing anything. Unset, it does nothing.
 */
let steps = 0;

export function faultPoint(env: NodeJS.ProcessEnv = process.env): void {
  const at = env.XAGENT_FAULT_KILL_AT;
  if (!at) return;
  steps++;
  if (steps === Number(at)) process.kill(process.pid, 'SIGKILL');
}
