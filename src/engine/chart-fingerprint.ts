import { queryEngine } from '../../machines/query-engine.js';
import { chartGraph } from '../diagram/chart-graph.js';

let fingerprint: string | undefined;

/** The fingerprint of the chart this xagent runs, computed once per process: every task_start records it. */
export function chartFingerprint(): string {
  return (fingerprint ??= chartGraph(queryEngine).fingerprint);
}
