import type { EvidenceListener, SessionSink } from '../src/sessions/session-writer.js';
import type { AgentEvent, QueryResult } from '../src/engine/events.js';
import { query } from '../src/engine/query.js';
import type { ModelClient } from '../src/model/types.js';
import type { RoundKit } from './round-fixtures.js';
import { loadTaskContext } from '../src/context/task-context.js';

/**
 * Runs one task through the real engine (with no session record unless `session` is given), consuming every event, and
 * checks it ended as a final answer after `rounds` tool rounds (a benchmark of a broken run is worthless).
 * @example await engineRun({ model: roundsModel(1000), ...roundKit(), rounds: 1000 });
 */
export async function engineRun(
  options: RoundKit & {
    model: ModelClient;
    rounds: number;
    observe?: (event: AgentEvent) => void;
    onEvidence?: EvidenceListener;
    /** The session the task records to (`openSessionWriter`), as the CLI gives every task one. */
    session?: SessionSink;
    sessionId?: string;
  },
): Promise<QueryResult> {
  const { rounds } = options;
  const events = query('go', {
    model: options.model,
    tools: options.tools,
    permissions: options.permissions,
    workspace: options.workspace,
    // As src/run prepares it for every task: the environment and instruction files, read once.
    context: loadTaskContext({ workspace: options.workspace, home: process.env.XAGENT_HOME ?? null }),
    maxTurns: rounds + 2,
    maxToolCalls: rounds + 1,
    timeoutMs: 3_600_000,
    ...(options.observe ? { observe: options.observe } : {}),
    ...(options.onEvidence ? { onEvidence: options.onEvidence } : {}),
    ...(options.session ? { session: options.session } : {}),
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
  });
  for await (const event of events) {
    if (event.type === 'result') {
      if (event.reason !== 'final_answer' || event.tool_calls !== rounds) {
        throw new Error(
          `engine run ended with ${event.reason} after ${event.tool_calls} tool calls (expected ${rounds}): ${event.error?.message ?? ''}`,
        );
      }
      return event;
    }
  }
  throw new Error('engine run ended without a result');
}
