import { RestateError } from './errors.js';

/** A Restate answer that is not 2xx: its status and the message it gave. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * One JSON request to the Restate server (ingress or admin API), without the SDK: the commands
 * that only talk to the server (submit, wait, tasks, approve, deny) and the library load nothing else.
 * A server that does not answer is RESTATE_UNREACHABLE; a refusal comes back as data for the caller to name.
 */
export async function requestJson(
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<{ ok: true; value: unknown } | { ok: false; refusal: Refusal }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new RestateError(
      'RESTATE_UNREACHABLE',
      `the Restate server at ${new URL(url).origin} does not answer (${cause?.code ?? cause?.message ?? (error as Error).message})`,
      {
        cause: error,
      },
    );
  }
  const text = await response.text();
  let value: unknown = null;
  try {
    value = text === '' ? null : JSON.parse(text);
  } catch {
    if (response.ok) throw new RestateError('RESTATE_UNREACHABLE', `${url} answered something that is not JSON: ${text.slice(0, 200)}`);
  }
  if (response.ok) return { ok: true, value };
  const message = (value as { message?: unknown } | null)?.message;
  return { ok: false, refusal: { status: response.status, message: typeof message === 'string' ? message : text.slice(0, 500) } };
}
