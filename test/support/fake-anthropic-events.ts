/**
 * The fake server's answers in the real wire shapes: SSE events for a streamed request
 * (text and tool input split into several deltas, a ping, usage in message_start and
 * message_delta) and the Message object for a non-streamed one.
 */
import type { FakeResponse } from './fake-anthropic.js';

export interface FakeBlock {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  /** For tool_use: send exactly this as the input JSON instead of JSON.stringify(input), e.g. a cut-off '{"pa'. */
  rawInputJson?: string;
  thinking?: string;
  signature?: string;
  /** For redacted_thinking. */
  data?: string;
}

export interface FakeUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

export type WireEvent = { type: string } & Record<string, unknown>;

/** The response's blocks with ids filled in; ids are stable per request number so tests can predict them. */
function blocksOf(response: FakeResponse, n: number): FakeBlock[] {
  const blocks = response.content ?? (response.text !== undefined ? [{ type: 'text', text: response.text }] : []);
  return blocks.map((block, i) => (block.type === 'tool_use' && !block.id ? { ...block, id: `toolu_fake_${n}_${i}` } : block));
}

function stopReasonOf(response: FakeResponse, blocks: FakeBlock[]): string {
  return response.stopReason ?? (blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function usageOf(response: FakeResponse, blocks: FakeBlock[], body: Record<string, unknown>): Required<FakeUsage> {
  const estimate = (text: string): number => Math.max(1, Math.ceil(text.length / 4));
  return {
    input_tokens: response.usage?.input_tokens ?? estimate(JSON.stringify(body.messages ?? '')),
    output_tokens: response.usage?.output_tokens ?? estimate(JSON.stringify(blocks)),
    cache_read_input_tokens: response.usage?.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: response.usage?.cache_creation_input_tokens ?? 0,
  };
}

/** Splits text into up to `parts` pieces (at least one), so every answer arrives as several deltas. */
export function splitIntoChunks(text: string, parts = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}

function messageId(n: number): string {
  return `msg_fake_${n}`;
}

/**
 * The SSE events of one streamed answer, in the order the real API sends them.
 * @example [...streamEvents({ text: 'hi' }, 'claude-test', 1, body)].map((e) => e.type)
 */
export function* streamEvents(response: FakeResponse, model: string, n: number, body: Record<string, unknown>): Generator<WireEvent> {
  const blocks = blocksOf(response, n);
  const usage = usageOf(response, blocks, body);
  yield {
    type: 'message_start',
    message: {
      id: messageId(n),
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: 1,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
      },
    },
  };
  yield { type: 'ping' };
  for (const [index, block] of blocks.entries()) {
    yield* blockEvents(block, index);
  }
  if (response.streamError) {
    yield { type: 'error', error: { type: response.streamError.type, message: response.streamError.message ?? 'Overloaded' } };
    return;
  }
  yield {
    type: 'message_delta',
    delta: { stop_reason: stopReasonOf(response, blocks), stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  };
  yield { type: 'message_stop' };
}

function* blockEvents(block: FakeBlock, index: number): Generator<WireEvent> {
  switch (block.type) {
    case 'text':
      yield { type: 'content_block_start', index, content_block: { type: 'text', text: '' } };
      for (const text of splitIntoChunks(block.text ?? '')) {
        yield { type: 'content_block_delta', index, delta: { type: 'text_delta', text } };
      }
      break;
    case 'tool_use': {
      yield { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } };
      const json = block.rawInputJson ?? JSON.stringify(block.input ?? {});
      // The real API opens with an empty partial_json before the first real piece.
      for (const partial_json of ['', ...splitIntoChunks(json, 4)]) {
        yield { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } };
      }
      break;
    }
    case 'thinking':
      yield { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } };
      for (const thinking of splitIntoChunks(block.thinking ?? '')) {
        yield { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } };
      }
      yield { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature ?? 'sig' } };
      break;
    default:
      yield { type: 'content_block_start', index, content_block: block };
  }
  yield { type: 'content_block_stop', index };
}

/** The non-streamed answer: one Message object. */
export function toMessage(response: FakeResponse, model: string, n: number, body: Record<string, unknown>): Record<string, unknown> {
  const blocks = blocksOf(response, n).map((block) => {
    if (block.type !== 'tool_use') return block;
    const { rawInputJson, ...rest } = block;
    void rawInputJson;
    return { ...rest, input: block.input ?? {} };
  });
  return {
    id: messageId(n),
    type: 'message',
    role: 'assistant',
    model,
    content: blocks,
    stop_reason: stopReasonOf(response, blocks),
    stop_sequence: null,
    usage: usageOf(response, blocks, body),
  };
}
