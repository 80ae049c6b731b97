/**
 * Bad flags or options, a missing key, a malformed settings file: nothing was sent to the model.
 * The CLI exits 2 with its message; the library throws it from `query()` before any request.
 * @example throw new UsageError('ANTHROPIC_API_KEY is not set');
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
