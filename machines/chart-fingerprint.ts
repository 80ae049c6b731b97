import { queryEngine } from './query-engine.js';
import { chartGraph } from './chart-graph.js';

let fingerprint: string | undefined;

/** The fingerprint of the chart this xagent runs, computed once per process: every task_start records it. */
export function chartFingerprint(): string {
  return (fingerprint ??= chartGraph(queryEngine).fingerprint);
}
