import type { ModelClient } from '../model/types.js';
import { UsageError } from './exit-codes.js';
import type { ModelFactory } from './run-config.js';

/**
 * The Anthropic API client for a run. The SDK is imported on the first request, so `--version`,
 * `--help`, usage errors and scripted runs never pay for loading it.
 */
export const createApiModel: ModelFactory = ({ modelId, env }) => {
  if (!env.ANTHROPIC_API_KEY) {
    throw new UsageError(
      'ANTHROPIC_API_KEY is not set. Export your key (export ANTHROPIC_API_KEY=sk-ant-...), ' +
        'or try the offline demo with --model-script (see npm start).',
    );
  }
  let client: Promise<ModelClient> | undefined;
  return {
    name: `anthropic:${modelId}`,
    async createMessage(request) {
      client ??= import('../model/anthropic.js').then(({ createAnthropicClient }) =>
        createAnthropicClient({ apiKey: env.ANTHROPIC_API_KEY ?? '', baseURL: env.ANTHROPIC_BASE_URL || undefined, model: modelId }),
      );
      return (await client).createMessage(request);
    },
  };
};
