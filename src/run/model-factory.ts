import type { ModelClient } from '../model/types.js';
import type { RequestPacer } from '../model/request-pacer.js';
import { UsageError } from '../errors/xagent-error.js';
import type { ModelFactory } from './run-config.js';

/**
 * The Anthropic API client for a run. The SDK's import starts here, when the flags are resolved,
 * so it loads while settings are read and the session opens instead of after; `--version`,
 * `--help`, usage errors and scripted runs never get here and never pay for it.
 */
export const createApiModel: ModelFactory = (options) => pacedApiModel(undefined)(options);

/**
 * The same clients, all sharing `pacer`: the tasks of a batch slow down together on a 429 / 529.
 * @example const createModel = pacedApiModel(createRequestPacer({ maxInFlight: 50 }));
 */
export const pacedApiModel =
  (pacer: RequestPacer | undefined): ModelFactory =>
  ({ modelId, env, maxThinkingTokens }) => {
    if (!env.ANTHROPIC_API_KEY) {
      throw new UsageError(
        'ANTHROPIC_API_KEY is not set. Export your key (export ANTHROPIC_API_KEY=sk-ant-...), ' +
          'or try the offline demo with --model-script (see npm start).',
      );
    }
    // Read now: the CLI then takes the key out of the environment its children inherit (agent-credentials.ts).
    const apiKey = env.ANTHROPIC_API_KEY;
    const baseURL = env.ANTHROPIC_BASE_URL || undefined;
    const client: Promise<ModelClient> = import('../model/anthropic.js').then(({ createAnthropicClient }) =>
      createAnthropicClient({
        apiKey,
        baseURL,
        model: modelId,
        ...(maxThinkingTokens ? { maxThinkingTokens } : {}),
        ...(pacer ? { pacer } : {}),
        // The SDK's own switch, but opt-in here: its spans cost CPU every round and nothing records them unless a tracer is set up.
        openTelemetry: /^(true|1)$/i.test(env.ANTHROPIC_OPEN_TELEMETRY ?? ''),
      }),
    );
    // A failure belongs to the first request (a run may end before making one).
    client.catch(() => undefined);
    return {
      name: `anthropic:${modelId}`,
      modelId,
      async createMessage(request) {
        return (await client).createMessage(request);
      },
    };
  };
