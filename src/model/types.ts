import type { Message, ModelResponse } from '../../machines/types.js';

/** A tool as the model is told about it. */
export interface ToolSpec {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** Things a client reports while a request is in flight; the engine turns them into events. */
export interface ModelCallbacks {
  onTextDelta?: (text: string) => void;
  /** Extended thinking as it streams (never part of the answer text). */
  onThinkingDelta?: (thinking: string) => void;
  /** A retried failure: attempt is 1 for the first retry. */
  onRetry?: (info: { attempt: number; delayMs: number; status?: number; message: string }) => void;
}

export interface ModelRequest extends ModelCallbacks {
  system: string;
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  signal: AbortSignal;
}

/**
 * Anything that answers one model round. Failures are thrown as ModelError (src/model/errors.ts).
 * @example const response = await client.createMessage({ system, messages, tools, signal });
 */
export interface ModelClient {
  readonly name: string;
  /** The API's model id, for the price and the context window; absent for scripted models. */
  readonly modelId?: string;
  createMessage(request: ModelRequest): Promise<ModelResponse>;
}
