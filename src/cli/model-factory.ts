import { ModelError } from '../model/errors.js';
import type { ModelFactory } from './run-config.js';

/** The Anthropic API client for a run. */
export const createApiModel: ModelFactory = () => ({
  name: 'anthropic',
  createMessage: async () => {
    throw new ModelError('the Anthropic client is not wired in yet', 'api');
  },
});
