import { queryEngine } from './query-engine.js';
import { chartGraph } from './chart-graph.js';

/**
 * Set by scripts/bundle.ts to this chart's fingerprint, computed when it was built: walking the
 * chart, printing and hashing it costs a process ~8 ms and a few MB it would spend before its
 * first task. Undefined when running from source (tests), which compute it.
 */
declare const XAGENT_CHART_FINGERPRINT: string | undefined;

let fingerprint: string | undefined;

/** The fingerprint of the chart this xagent runs, computed once per process: every task_start records it. */
export function chartFingerprint(): string {
  fingerprint ??= typeof XAGENT_CHART_FINGERPRINT === 'string' ? XAGENT_CHART_FINGERPRINT : chartGraph(queryEngine).fingerprint;
  return fingerprint;
}
