/**
 * Builds one ModelResponse from the Messages API's stream events, in the order they arrive.
 * Text deltas are passed on as they come; tool inputs are parsed once their block stops.
 * No I/O: the client feeds it events, tests can feed it recorded ones.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelResponse, Usage } from '../../machines/types.js';
import { truncatedToolUseIds } from './request.js';
import { XagentError } from '../errors/xagent-error.js';

type Block = ModelResponse['content'][number];

/** The stream ended before message_stop: the connection dropped or a proxy cut it. */
export class StreamInterruptedError extends XagentError {
  override readonly name = 'StreamInterruptedError';
  override readonly fault = 'model';
}

/**
 * @example
 * const assembler = new ResponseAssembler((text) => process.stdout.write(text));
 * for await (const event of stream) assembler.handle(event);
 * const response = assembler.finish();
 */
export class ResponseAssembler {
  private readonly blocks: Array<Record<string, unknown> & { type: string }> = [];
  /** Partial JSON of tool inputs, by block index, until content_block_stop. */
  private readonly partialJson = new Map<number, string>();
  private readonly unparsedIds: string[] = [];
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0 };
  private stopReason: string | null = null;
  private stopped = false;

  constructor(
    private readonly onTextDelta?: (text: string) => void,
    private readonly onThinkingDelta?: (thinking: string) => void,
  ) {}

  handle(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.mergeUsage(event.message.usage);
        return;
      case 'content_block_start': {
        const block: Record<string, unknown> & { type: string } = { ...event.content_block };
        if ('input' in block) this.partialJson.set(event.index, '');
        this.blocks[event.index] = block;
        return;
      }
      case 'content_block_delta':
        this.applyDelta(event.index, event.delta);
        return;
      case 'content_block_stop':
        this.closeBlock(event.index);
        return;
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.mergeUsage(event.usage);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      default: {
        // An event type this version does not know is skipped, as the SDK's own accumulator does.
        const unknown: never = event;
        void unknown;
      }
    }
  }

  /**
   * The finished response. Every stop_reason is passed on for the engine to route; here
   * max_tokens marks a tool_use cut off mid-input so the engine never executes it.
   * Throws StreamInterruptedError if message_stop or a stop_reason never arrived.
   */
  finish(): ModelResponse {
    if (!this.stopped || this.stopReason === null) {
      throw new StreamInterruptedError('The response stream ended before the message was complete');
    }
    for (const index of this.partialJson.keys()) this.closeBlock(index);
    const content = this.blocks
      .filter((b): b is Record<string, unknown> & { type: string } => b !== undefined)
      .map(cleanBlock)
      .filter((b) => !(b.type === 'text' && b.text === ''));
    const truncated = truncatedToolUseIds({ content, stopReason: this.stopReason, unparsedIds: this.unparsedIds });
    for (const block of content) {
      if (block.type === 'tool_use' && truncated.includes(String(block.id))) block.input = {};
    }
    const response: ModelResponse = { content, stopReason: this.stopReason, usage: { ...this.usage } };
    if (truncated.length > 0) response.truncatedToolUseIds = truncated;
    return response;
  }

  private applyDelta(index: number, delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta']): void {
    const block = this.blocks[index];
    if (!block) return;
    switch (delta.type) {
      case 'text_delta':
        block.text = String(block.text ?? '') + delta.text;
        this.onTextDelta?.(delta.text);
        return;
      case 'input_json_delta':
        this.partialJson.set(index, (this.partialJson.get(index) ?? '') + delta.partial_json);
        return;
      case 'thinking_delta':
        block.thinking = String(block.thinking ?? '') + delta.thinking;
        this.onThinkingDelta?.(delta.thinking);
        return;
      case 'signature_delta':
        block.signature = String(block.signature ?? '') + delta.signature;
        return;
      case 'citations_delta':
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return;
      default: {
        const unknown: never = delta;
        void unknown;
      }
    }
  }

  private closeBlock(index: number): void {
    const json = this.partialJson.get(index);
    const block = this.blocks[index];
    if (json === undefined || !block) return;
    this.partialJson.delete(index);
    if (json.trim() === '') {
      // A tool called with no arguments streams no JSON at all.
      block.input = {};
      return;
    }
    try {
      block.input = JSON.parse(json) as unknown;
    } catch {
      block.input = {};
      if (typeof block.id === 'string') this.unparsedIds.push(block.id);
    }
  }

  /** message_start carries the input side; message_delta carries cumulative totals, some null. */
  private mergeUsage(
    usage:
      | {
          input_tokens?: number | null;
          output_tokens?: number | null;
          cache_read_input_tokens?: number | null;
          cache_creation_input_tokens?: number | null;
        }
      | null
      | undefined,
  ): void {
    if (!usage) return;
    if (typeof usage.input_tokens === 'number') this.usage.input_tokens = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') this.usage.output_tokens = usage.output_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') this.usage.cache_read_input_tokens = usage.cache_read_input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') {
      this.usage.cache_creation_input_tokens = usage.cache_creation_input_tokens;
    }
  }
}

/** Only the fields the API takes back: a text block with `citations: null` is noise in the transcript. */
function cleanBlock(block: Record<string, unknown> & { type: string }): Block & Record<string, unknown> {
  if (block.type === 'text') {
    const citations = Array.isArray(block.citations) && block.citations.length > 0 ? { citations: block.citations } : {};
    return { type: 'text', text: String(block.text ?? ''), ...citations };
  }
  if (block.type === 'tool_use') {
    return { type: 'tool_use', id: String(block.id), name: String(block.name), input: block.input ?? {} };
  }
  return block;
}
