import { XagentError } from '../errors/xagent-error.js';

/** A model request that failed for good (after the client's own retries). */
export class ModelError extends XagentError {
  override readonly name = 'ModelError';
  override readonly fault = 'model';
  constructor(
    message: string,
    readonly kind: 'authentication' | 'rate_limit' | 'overloaded' | 'api' | 'network' | 'invalid_request' | 'script',
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
