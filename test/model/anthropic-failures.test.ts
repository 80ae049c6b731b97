import { APIError } from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicClient, type AnthropicClientOptions } from '../../src/model/anthropic.js';
import { ModelError } from '../../src/model/errors.js';
import type { ModelCallbacks, ModelRequest } from '../../src/model/types.js';
import { startFakeAnthropic, type FakeAnthropic, type FakeResponse } from '../support/fake-anthropic.js';

type RetryInfo = Parameters<NonNullable<ModelCallbacks['onRetry']>>[0];

const FAST = { baseDelayMs: 1, maxDelayMs: 5 };
let fake: FakeAnthropic | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(script: FakeResponse[], options: Partial<AnthropicClientOptions> = {}, fakeKey?: string) {
  fake = await startFakeAnthropic(script, fakeKey === undefined ? {} : { apiKey: fakeKey });
  const client = createAnthropicClient({ apiKey: 'sk-test', baseURL: fake.url, model: 'claude-test', retryTiming: FAST, ...options });
  return { fake, client };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest & { retries: RetryInfo[] } {
  const retries: RetryInfo[] = [];
  return {
    system: '',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    tools: [],
    signal: new AbortController().signal,
    onRetry: (info) => retries.push(info),
    retries,
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e,
  );
}

async function modelError(promise: Promise<unknown>): Promise<ModelError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('retries', () => {
  it('retries an overloaded API and reports the retry with its attempt and status', async () => {
    const { fake, client } = await setup([{ error: { type: 'overloaded_error' } }, { text: 'finally' }]);
    const req = request();
    const response = await client.createMessage(req);
    expect(response.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(req.retries).toEqual([{ attempt: 1, delayMs: expect.any(Number), status: 529, message: expect.stringContaining('Overloaded') }]);
    expect(fake.requests).toHaveLength(2);
  });

  it.each([
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [503, 'api_error'],
  ])('retries HTTP %i', async (status, type) => {
    const { client } = await setup([{ error: { type }, status }, { text: 'ok' }]);
    const req = request();
    await client.createMessage(req);
    expect(req.retries.map((r) => r.status)).toEqual([status]);
  });

  it('waits as long as retry-after asks, not the default backoff', async () => {
    const { client } = await setup([{ error: { type: 'rate_limit_error' }, retryAfter: 0.02 }, { text: 'ok' }], {
      retryTiming: { baseDelayMs: 20_000, maxDelayMs: 20_000 },
    });
    const req = request();
    await client.createMessage(req);
    expect(req.retries[0].delayMs).toBe(20);
  });

  it('prefers retry-after-ms when the server sends it', async () => {
    const { client } = await setup([{ error: { type: 'overloaded_error' }, retryAfterMs: 7, retryAfter: 30 }, { text: 'ok' }]);
    const req = request();
    await client.createMessage(req);
    expect(req.retries[0].delayMs).toBe(7);
  });

  it('gives up after maxRetries with the cause, having reported each retry', async () => {
    const overloaded: FakeResponse = { error: { type: 'overloaded_error', message: 'Overloaded' } };
    const { fake, client } = await setup([overloaded, overloaded, overloaded, { text: 'never reached' }]);
    const req = request();
    const error = await modelError(client.createMessage(req));
    expect(error.kind).toBe('overloaded');
    expect(error.status).toBe(529);
    expect(error.message).toMatch(/Overloaded.*3 attempts/);
    expect(error.cause).toBeInstanceOf(APIError);
    expect(req.retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a connection dropped in the middle of a stream, and says the partial text will be repeated', async () => {
    const { client } = await setup([{ text: 'a long answer that will be cut off', dropAfterBytes: 700 }, { text: 'the whole answer' }]);
    const deltas: string[] = [];
    const req = request({ onTextDelta: (t) => deltas.push(t) });
    const response = await client.createMessage(req);
    expect(response.content).toEqual([{ type: 'text', text: 'the whole answer' }]);
    expect(req.retries).toHaveLength(1);
    expect(req.retries[0].status).toBeUndefined();
    expect(req.retries[0].message).toMatch(/streamed again/);
    expect(deltas.join('')).toMatch(/the whole answer$/);
  });

  it('reports a network error with the cause when a dropped connection keeps dropping', async () => {
    const drop: FakeResponse = { text: 'cut', dropAfterBytes: 50 };
    const { client } = await setup([drop, drop, drop]);
    const error = await modelError(client.createMessage(request()));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/127\.0\.0\.1/);
    expect(error.cause).toBeDefined();
  });

  it('retries an overloaded_error event sent inside a stream', async () => {
    const { client } = await setup([{ text: 'half', streamError: { type: 'overloaded_error' } }, { text: 'ok' }], { maxRetries: 1 });
    const req = request();
    const response = await client.createMessage(req);
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(req.retries[0].message).toMatch(/overloaded_error/);
  });

  it('does not retry when maxRetries is 0', async () => {
    const { fake, client } = await setup([{ error: { type: 'api_error' } }, { text: 'ok' }], { maxRetries: 0 });
    const req = request();
    const error = await modelError(client.createMessage(req));
    expect(error.kind).toBe('api');
    expect(req.retries).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });
});

describe('errors that are not retried', () => {
  it('stops at once on 401 with a message about ANTHROPIC_API_KEY', async () => {
    const { fake, client } = await setup([{ text: 'unreachable' }], {}, 'the-right-key');
    const req = request();
    const error = await modelError(client.createMessage(req));
    expect(error.kind).toBe('authentication');
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/ANTHROPIC_API_KEY/);
    expect(req.retries).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('stops at once on 403 as an authentication error', async () => {
    const { fake, client } = await setup([{ error: { type: 'permission_error', message: 'no access to this model' } }]);
    const error = await modelError(client.createMessage(request()));
    expect(error.kind).toBe('authentication');
    expect(error.message).toMatch(/no access to this model/);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a 400 with the API message as invalid_request', async () => {
    const { fake, client } = await setup([
      { error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } },
    ]);
    const error = await modelError(client.createMessage(request()));
    expect(error.kind).toBe('invalid_request');
    expect(error.status).toBe(400);
    expect(error.message).toContain('prompt is too long: 250000 tokens > 200000 maximum');
    expect(fake.requests).toHaveLength(1);
  });

  it('obeys x-should-retry: false (the fake sends it when its script is used up)', async () => {
    const { fake, client } = await setup([]);
    const error = await modelError(client.createMessage(request()));
    expect(error.kind).toBe('api');
    expect(fake.requests).toHaveLength(1);
    expect(fake.rejected[0].errors[0]).toMatch(/no scripted response left/);
  });
});

describe('abort', () => {
  it('aborts a slow streaming request, closing its connection, and rejects with the abort reason', async () => {
    const { fake, client } = await setup([{ text: 'slow answer that takes forever', eventDelayMs: 60_000 }]);
    const controller = new AbortController();
    const pending = rejection(client.createMessage(request({ signal: controller.signal })));
    // The stream has started (message_start is out) and its next event is a minute away.
    await expect.poll(() => fake.requests.length).toBe(1);
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(error).not.toBeInstanceOf(ModelError);
    await expect.poll(() => fake.disconnected).toEqual([0]);
  });

  it('aborts after text has been streamed, without retrying', async () => {
    const { fake, client } = await setup([{ text: 'abcdefghijkl', eventDelayMs: 5 }, { text: 'must not be requested' }]);
    const controller = new AbortController();
    const req = request({ signal: controller.signal, onTextDelta: () => controller.abort() });
    const error = await rejection(client.createMessage(req));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(req.retries).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('aborts while waiting to retry, without another request', async () => {
    const { fake, client } = await setup([{ error: { type: 'overloaded_error' }, retryAfter: 50 }, { text: 'ok' }], {
      retryTiming: { maxRetryAfterMs: 120_000 },
    });
    const controller = new AbortController();
    const req = request({ signal: controller.signal, onRetry: () => controller.abort() });
    const error = await rejection(client.createMessage(req));
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(fake.requests).toHaveLength(1);
  });

  it('does not send a request when the signal is already aborted', async () => {
    const { fake, client } = await setup([{ text: 'ok' }]);
    await rejection(client.createMessage(request({ signal: AbortSignal.abort() })));
    expect(fake.requests).toHaveLength(0);
  });
});
