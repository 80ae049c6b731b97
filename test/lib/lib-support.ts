import type { RecordedRequest } from '../support/fake-anthropic.js';
import type { QueryResult, StreamJsonEvent } from '../../src/lib/index.js';

/** Every event of a library run, and its result (the last event). */
export async function collect(events: AsyncIterable<StreamJsonEvent>): Promise<{ events: StreamJsonEvent[]; result: QueryResult }> {
  const all: StreamJsonEvent[] = [];
  for await (const event of events) all.push(event);
  const result = all.at(-1);
  if (result?.type !== 'result') throw new Error(`the last event is ${result?.type}, not result`);
  return { events: all, result };
}

interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** The tool_result blocks the model received in one request. */
export function toolResultsIn(request: RecordedRequest | undefined): ToolResultBlock[] {
  const body = request?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  return (body?.messages ?? []).flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<ToolResultBlock & { cache_control?: unknown }>)
          .filter((block) => block.type === 'tool_result')
          // The prompt-cache marker is the request builder's business, not the tool's.
          .map(({ cache_control: _cache, ...block }) => block)
      : [],
  );
}
