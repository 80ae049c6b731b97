import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ContentBlock, ModelResponse, OtherBlock, Usage } from '../../machines/types.js';
import { ModelError } from './errors.js';
import type { ModelClient, ModelRequest } from './types.js';
import { UsageError } from '../errors/xagent-error.js';

const ERROR_KINDS = {
  overloaded_error: 'overloaded',
  rate_limit_error: 'rate_limit',
  api_error: 'api',
  authentication_error: 'authentication',
} as const;

export type ScriptedErrorType = keyof typeof ERROR_KINDS;

/** One answer of a scripted model; the format of `--model-script` files. */
export type ScriptedResponse = (
  | { content: Array<ContentBlock | OtherBlock> }
  | { text: string }
  | { error: { type: ScriptedErrorType; message?: string } }
) & { delay_ms?: number; usage?: Partial<Usage>; stop_reason?: string };

export interface ModelScript {
  responses: ScriptedResponse[];
}

export class ModelScriptError extends UsageError {
  override readonly name = 'ModelScriptError';
  override readonly fault = 'usage';
}

/** Checks a parsed script's shape; the message names the response at fault. */
export function parseModelScript(value: unknown, source = 'model script'): ModelScript {
  const fail = (why: string): never => {
    throw new ModelScriptError(`${source}: ${why}`);
  };
  if (typeof value !== 'object' || value === null || !Array.isArray((value as ModelScript).responses)) {
    fail('expected {"responses": [...]}');
  }
  const responses = (value as ModelScript).responses;
  for (const [i, r] of responses.entries()) {
    if (typeof r !== 'object' || r === null) fail(`responses[${i}] is not an object`);
    if ('error' in r) {
      if (!(r.error?.type in ERROR_KINDS)) fail(`responses[${i}].error.type must be one of ${Object.keys(ERROR_KINDS).join(', ')}`);
    } else if ('text' in r) {
      if (typeof r.text !== 'string') fail(`responses[${i}].text must be a string`);
    } else if ('content' in r) {
      if (!Array.isArray(r.content)) fail(`responses[${i}].content must be an array of content blocks`);
      r.content.forEach((b, j) => {
        if (typeof b?.type !== 'string') fail(`responses[${i}].content[${j}] has no type`);
        if (b.type === 'tool_use' && typeof (b as { name?: unknown }).name !== 'string') {
          fail(`responses[${i}].content[${j}] is a tool_use without a name`);
        }
      });
    } else {
      fail(`responses[${i}] needs "content", "text" or "error"`);
    }
    if (r.delay_ms !== undefined && !(Number.isFinite(r.delay_ms) && r.delay_ms >= 0)) {
      fail(`responses[${i}].delay_ms must be a number >= 0`);
    }
  }
  return { responses };
}

export function loadModelScript(file: string): ModelScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ModelScriptError(`cannot read model script ${file}: ${(error as Error).message}`);
  }
  try {
    return parseModelScript(JSON.parse(text), file);
  } catch (error) {
    if (error instanceof ModelScriptError) throw error;
    throw new ModelScriptError(`model script ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A model that answers from a script, in order: the offline demo, the tests, and `--model-script`.
 * @example const model = createScriptedClient({ responses: [{ text: 'done' }] });
 */
export function createScriptedClient(script: ModelScript): ModelClient & { readonly requests: number } {
  let index = 0;
  // A resumed session runs the script again in a new process: ids must differ from the earlier run's.
  const run = randomBytes(3).toString('hex');
  return {
    name: 'scripted',
    get requests() {
      return index;
    },
    async createMessage(request: ModelRequest): Promise<ModelResponse> {
      const n = index++;
      const response = script.responses[n];
      if (!response) {
        throw new ModelError(`scripted model: request ${n + 1} has no response (the script has ${script.responses.length})`, 'script');
      }
      if (response.delay_ms) await sleep(response.delay_ms, request.signal);
      request.signal.throwIfAborted();
      if ('error' in response) {
        const { type, message } = response.error;
        throw new ModelError(message ?? `scripted ${type}`, ERROR_KINDS[type]);
      }
      const content: Array<ContentBlock | OtherBlock> =
        'text' in response
          ? [{ type: 'text', text: response.text }]
          : response.content.map((block, j) =>
              block.type === 'tool_use' && !(block as { id?: unknown }).id
                ? { ...block, id: `toolu_scripted_${run}_${n + 1}_${j + 1}`, input: (block as { input?: unknown }).input ?? {} }
                : block,
            );
      for (const block of content) {
        if (block.type === 'text' && typeof block.text === 'string') request.onTextDelta?.(block.text);
      }
      const stopReason = response.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
      // As with the real API, max_tokens can only cut off the last block.
      const last = content.at(-1);
      const truncated = stopReason === 'max_tokens' && last?.type === 'tool_use' ? [String(last.id)] : [];
      return {
        content,
        stopReason,
        usage: { input_tokens: 0, output_tokens: 0, ...response.usage },
        ...(truncated.length ? { truncatedToolUseIds: truncated } : {}),
      };
    },
  };
}
