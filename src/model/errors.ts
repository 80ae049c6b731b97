/** A model request that failed for good (after the client's own retries). */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    message: string,
    readonly kind: 'authentication' | 'rate_limit' | 'overloaded' | 'api' | 'network' | 'invalid_request' | 'script',
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
