/**
 * The one place where whatever the SDK or the network throws becomes a decision
 * (retry or not) and, in the end, a ModelError the engine can report.
 */
import { APIConnectionError, APIError } from '@anthropic-ai/sdk';
import { ModelError } from './errors.js';
import { StreamInterruptedError } from './stream-assembler.js';

type Kind = ModelError['kind'];

export interface Failure {
  retryable: boolean;
  kind: Kind;
  /** HTTP status, when the failure was an HTTP error response (not an error event inside a stream). */
  status?: number;
  /** One line for the user: what failed, with the API's own message. */
  message: string;
  headers?: Headers;
  cause: unknown;
}

/** Error types the API may also send as an `error` event in the middle of a stream. */
const STREAM_ERROR_TYPES: Record<string, { kind: Kind; retryable: boolean }> = {
  overloaded_error: { kind: 'overloaded', retryable: true },
  rate_limit_error: { kind: 'rate_limit', retryable: true },
  api_error: { kind: 'api', retryable: true },
  timeout_error: { kind: 'api', retryable: true },
  authentication_error: { kind: 'authentication', retryable: false },
  permission_error: { kind: 'authentication', retryable: false },
  invalid_request_error: { kind: 'invalid_request', retryable: false },
  not_found_error: { kind: 'invalid_request', retryable: false },
  request_too_large: { kind: 'invalid_request', retryable: false },
};

/**
 * Decides what one failed attempt means.
 * @example classifyFailure(err).retryable
 */
export function classifyFailure(error: unknown): Failure {
  if (error instanceof ModelError)
    return { retryable: false, kind: error.kind, status: error.status, message: error.message, cause: error };
  if (error instanceof StreamInterruptedError) return { retryable: true, kind: 'network', message: error.message, cause: error };
  // APIConnectionError extends APIError, so it is checked first.
  if (error instanceof APIConnectionError) {
    return { retryable: true, kind: 'network', message: describeConnection(error), cause: error };
  }
  if (error instanceof APIError) return classifyApiError(error);
  if (isDroppedConnection(error)) {
    return { retryable: true, kind: 'network', message: `Connection dropped: ${describeConnection(error)}`, cause: error };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { retryable: false, kind: 'api', message: `Unexpected failure: ${message}`, cause: error };
}

function classifyApiError(error: APIError): Failure {
  const status = error.status;
  const apiMessage = error.apiMessage ?? error.message;
  const headers = error.headers;
  const shouldRetry = headers?.get('x-should-retry');
  if (status === undefined) {
    // An `error` event inside a 200 stream: only its type says what happened.
    const known = (error.type && STREAM_ERROR_TYPES[error.type]) || { kind: 'api' as const, retryable: false };
    return { ...known, message: `${error.type ?? 'error'} during the response stream: ${apiMessage}`, cause: error };
  }
  const base = { status, headers, cause: error };
  if (status === 401) {
    return {
      ...base,
      retryable: false,
      kind: 'authentication',
      message: `Authentication failed (401): ${apiMessage}. Check ANTHROPIC_API_KEY.`,
    };
  }
  if (status === 403) {
    return {
      ...base,
      retryable: false,
      kind: 'authentication',
      message: `Permission denied (403): ${apiMessage}. Check that ANTHROPIC_API_KEY is valid and allowed to use this model.`,
    };
  }
  const retryable =
    shouldRetry === 'true' || (shouldRetry !== 'false' && (status === 408 || status === 409 || status === 429 || status >= 500));
  if (status === 429) return { ...base, retryable, kind: 'rate_limit', message: `Rate limited (429): ${apiMessage}` };
  if (status === 529 || error.type === 'overloaded_error') {
    return { ...base, retryable, kind: 'overloaded', message: `API overloaded (${status}): ${apiMessage}` };
  }
  if (status >= 500) return { ...base, retryable, kind: 'api', message: `API error (${status}): ${apiMessage}` };
  if (status === 404 && /^model: /.test(apiMessage)) {
    return {
      ...base,
      retryable: false,
      kind: 'invalid_request',
      message: `Model not found (404): ${apiMessage}. Choose another with --model <id> or ANTHROPIC_MODEL.`,
    };
  }
  if (status === 400 || status === 404 || status === 413 || status === 422) {
    return { ...base, retryable, kind: 'invalid_request', message: `Invalid request (${status}): ${apiMessage}` };
  }
  return { ...base, retryable, kind: 'api', message: `API error (${status}): ${apiMessage}` };
}

/** Node's fetch reports a socket closed mid-body as `TypeError: terminated` with a socket error as cause. */
function isDroppedConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TypeError' && /terminated|fetch failed/i.test(error.message)) return true;
  const code = errorCode(error) ?? errorCode(error.cause);
  return code !== undefined && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR_)/.test(code);
}

function errorCode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('code' in value)) return undefined;
  return typeof value.code === 'string' ? value.code : undefined;
}

function describeConnection(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 3; e = e.cause) {
    const message = e.message.replace(/\.$/, '');
    if (message && !parts.includes(message)) parts.push(message);
  }
  return parts.join(': ') || String(error);
}

/**
 * The error the engine sees once retrying is over (or was never allowed).
 * `baseURLFromEnv` says the URL came from ANTHROPIC_BASE_URL, so a connection error names it.
 * @example throw finalError({ failure, attempts: 3, baseURL })
 */
export function finalError({
  failure,
  attempts,
  baseURL,
  baseURLFromEnv = false,
}: {
  failure: Failure;
  attempts: number;
  baseURL: string;
  baseURLFromEnv?: boolean;
}): ModelError {
  if (failure.cause instanceof ModelError) return failure.cause;
  const tried = attempts > 1 ? ` (gave up after ${attempts} attempts)` : '';
  const source = baseURLFromEnv ? ' (set by ANTHROPIC_BASE_URL)' : '';
  const where = failure.kind === 'network' ? `Could not get a response from the Anthropic API at ${baseURL}${source}: ` : '';
  return new ModelError(`${where}${failure.message}${tried}`, failure.kind, failure.status, { cause: failure.cause });
}
