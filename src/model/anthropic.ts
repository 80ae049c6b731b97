/**
 * The real model client: the Anthropic Messages API through @anthropic-ai/sdk, streamed.
 *
 * Retries are ours, not the SDK's (its maxRetries is 0): the SDK's retries are invisible, and
 * every retry must reach the engine through onRetry. Retried: 408, 409, 429, 5xx (529 too),
 * overloaded/api error events inside a stream, dropped connections and streams that end early.
 * Not retried: 400/404/413 (invalid_request), 401/403 (authentication), other 4xx.
 *
 * A stream that dies after some text was already passed to onTextDelta is retried from the
 * start like any other: the text the user saw is streamed again (onRetry's message says so, so
 * the CLI can mark the break), but the response and the transcript only ever hold the complete
 * attempt. Losing the whole task to a blip was judged worse than a repeated line on screen.
 */
import { BaseAnthropic, type ClientOptions } from '@anthropic-ai/sdk';
import { Messages, type MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import type { ModelResponse } from '../../machines/types.js';
import { classifyFailure, finalError } from './anthropic-errors.js';
import { ModelError } from './errors.js';
import { nodeHttpFetch } from '../startup/http-fetch.js';
import { fastStart } from '../startup/fast-start.js';
import { fairTurn } from '../system/fair-turns.js';
import { requestMaxTokens } from './request.js';
import { RequestEncoder } from './request-encoder.js';
import { abortReason, DEFAULT_RETRY_TIMING, retryDelayMs, sleep, type RetryTiming } from './retry-policy.js';
import { ResponseAssembler } from './stream-assembler.js';
import type { ModelClient, ModelRequest } from './types.js';
import type { RequestPacer } from './request-pacer.js';

/**
 * The SDK's client with the Messages API only. The full `Anthropic` class builds every resource
 * (beta, files, models, batches...): about 1 MB of code to load and compile that a run never calls.
 * The requests, retries-off, headers and streaming are the SDK's own.
 */
class MessagesClient extends BaseAnthropic {
  readonly messages = new Messages(this);
}

export const DEFAULT_MAX_TOKENS = 8192;
export const DEFAULT_MAX_RETRIES = 2;

export interface AnthropicClientOptions {
  /** Required; the CLI reads it from ANTHROPIC_API_KEY. Sent as `Authorization: Bearer`. */
  apiKey: string;
  /** The CLI passes ANTHROPIC_BASE_URL; when absent the SDK falls back to that variable, then api.anthropic.com. */
  baseURL?: string;
  model: string;
  /** max_tokens per request; default 8192. */
  maxTokens?: number;
  /** Retries after the first attempt; default 2. */
  maxRetries?: number;
  /** Backoff timing; tests make it tiny. */
  retryTiming?: Partial<RetryTiming>;
  /** Per-attempt HTTP timeout in ms (the SDK's own default is 10 minutes). */
  timeoutMs?: number;
  /** Extended thinking budget (>= 1024); 0 or absent = off. */
  maxThinkingTokens?: number;
  /** Shared with the other tasks of a batch: a 429 / 529 slows them all, and its retries come from the batch's budget. */
  pacer?: RequestPacer;
  /** Prompt caching breakpoints; default on. */
  promptCaching?: boolean;
  /** The SDK's OpenTelemetry spans and trace propagation; default off (ANTHROPIC_OPEN_TELEMETRY=true turns them on in the CLI). */
  openTelemetry?: boolean;
}

/**
 * What the SDK client is constructed with: our retries, our fetch, and no OpenTelemetry unless asked.
 * @example new MessagesClient(sdkOptions({ apiKey, model: 'claude-x' }))
 */
export function sdkOptions(options: AnthropicClientOptions): ClientOptions {
  return {
    apiKey: options.apiKey,
    // undefined lets the SDK read ANTHROPIC_BASE_URL itself; an empty string would mean "default".
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
    maxRetries: 0,
    // Our fetch over node:http, unless the start-up machinery is off (XAGENT_FAST_START=0): then Node's own.
    ...(fastStart() ? { fetch: nodeHttpFetch } : {}),
    // The SDK's spans and trace headers cost ~0.3 ms of CPU per request even with no tracer
    // registered (its no-op provider); on only when asked for (bench/README.md, issue 17).
    ...(options.openTelemetry ? {} : { openTelemetry: { traces: false, propagation: false } }),
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
  };
}

/**
 * Creates the streaming Anthropic client. Throws ModelError('authentication') at once if the key is empty.
 * @example
 * const client = createAnthropicClient({ apiKey: process.env.ANTHROPIC_API_KEY ?? '', baseURL: process.env.ANTHROPIC_BASE_URL, model });
 * const response = await client.createMessage({ system, messages, tools, signal, onTextDelta: (t) => process.stdout.write(t) });
 */
export function createAnthropicClient(options: AnthropicClientOptions): ModelClient {
  if (!options.apiKey) {
    throw new ModelError('No API key: set ANTHROPIC_API_KEY to use the Anthropic API.', 'authentication');
  }
  const sdk = new MessagesClient(sdkOptions(options));
  const timing: RetryTiming = { ...DEFAULT_RETRY_TIMING, ...options.retryTiming };
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const encoder = new RequestEncoder();

  return {
    name: `anthropic:${options.model}`,
    modelId: options.model,
    async createMessage(request: ModelRequest): Promise<ModelResponse> {
      const thinkingBudget = options.maxThinkingTokens ?? 0;
      const body = encoder.encode({
        model: options.model,
        maxTokens,
        system: request.system,
        messages: request.messages,
        tools: request.tools,
        cache: options.promptCaching ?? true,
        thinkingBudget,
      });
      // What the SDK reads from the params besides the body (its model warnings); the body it sends is `body`.
      const params: RequestParams = {
        model: options.model,
        max_tokens: requestMaxTokens(maxTokens, thinkingBudget),
        stream: true,
        messages: [],
      };
      const pacer = options.pacer;
      // `attempt` counts this request's own retries; a paced rate limit retries on the batch's budget instead.
      for (let attempt = 0, tries = 0; ; tries++) {
        if (request.signal.aborted) throw abortReason(request.signal);
        let streamedText = false;
        const onTextDelta = (text: string): void => {
          streamedText = true;
          request.onTextDelta?.(text);
        };
        const release = pacer ? await pacer.acquire(request.signal) : undefined;
        try {
          const response = await streamOnce({
            sdk,
            params,
            body,
            signal: request.signal,
            onTextDelta,
            onThinkingDelta: request.onThinkingDelta,
          });
          pacer?.succeeded();
          // Its answer is read whole, so the request has sent all of it: the encoder may write those bytes again.
          // After a failed attempt it may not: that attempt's request could still be sending the same bytes.
          if (tries === 0) encoder.returned(body);
          return response;
        } catch (error) {
          // The slot goes back before any wait, so a waiting request never holds one.
          release?.();
          if (request.signal.aborted) throw abortReason(request.signal);
          const failure = classifyFailure(error);
          const restart = streamedText ? ' (the partial answer above will be streamed again)' : '';
          if (pacer && failure.retryable && (failure.kind === 'rate_limit' || failure.kind === 'overloaded')) {
            const delayMs = pacer.limited(failure.headers);
            if (delayMs === null) {
              throw finalError({ failure, attempts: tries + 1, baseURL: sdk.baseURL, baseURLFromEnv: options.baseURL !== undefined });
            }
            request.onRetry?.({ attempt: tries + 1, delayMs, status: failure.status, message: failure.message + restart });
            // The wait itself is the pacer's: acquire() holds every request of the batch until the backoff ends.
            continue;
          }
          if (!failure.retryable || attempt >= maxRetries) {
            throw finalError({ failure, attempts: tries + 1, baseURL: sdk.baseURL, baseURLFromEnv: options.baseURL !== undefined });
          }
          attempt++;
          const delayMs = retryDelayMs({ attempt, headers: failure.headers, timing });
          request.onRetry?.({ attempt: tries + 1, delayMs, status: failure.status, message: failure.message + restart });
          await sleep(delayMs, request.signal);
        } finally {
          release?.();
        }
      }
    },
  };
}

type RequestParams = MessageCreateParamsStreaming;

/**
 * One attempt. The body goes as JSON bytes through the SDK's `body` request option (the SDK
 * sends bytes as they are; the content type is ours): the SDK still builds the request's URL,
 * headers, timeout and error mapping, and reads the stream; RequestEncoder made the bytes without
 * re-serialising the conversation. `params` carry no messages, so the SDK does not walk them
 * looking for its own helpers' markers, which our messages never carry.
 */
async function streamOnce({
  sdk,
  params,
  body,
  signal,
  onTextDelta,
  onThinkingDelta,
}: {
  sdk: MessagesClient;
  params: RequestParams;
  body: Buffer;
  signal: AbortSignal;
  onTextDelta: (text: string) => void;
  onThinkingDelta?: (thinking: string) => void;
}): Promise<ModelResponse> {
  const stream = await sdk.messages.create(params, { signal, maxRetries: 0, body, headers: { 'content-type': 'application/json' } });
  const assembler = new ResponseAssembler(onTextDelta, onThinkingDelta);
  // The SDK ends iteration quietly when its request is aborted, so the signal is checked after the loop.
  for await (const event of stream) {
    // A thousand answers arrive together: each task takes its turn, so the loop never stalls on all of them at once.
    const turn = fairTurn();
    if (turn) await turn;
    assembler.handle(event);
  }
  if (signal.aborted) throw abortReason(signal);
  return assembler.finish();
}
