/**
 * The bundle's stand-ins for the fetch globals inside the Anthropic SDK's modules
 * (scripts/sdk-globals-plugin.ts imports these under the globals' names there, nowhere else).
 *
 * On Node 20 the first touch of `Headers` or `FormData` loads undici (~20 ms before the first
 * request). The SDK builds headers for every request and asks `body instanceof FormData` of every
 * body; neither needs undici: headers are LiteHeaders, and `FormData` here answers `instanceof`
 * by the object's tag and builds a real FormData only when something (a file upload) constructs
 * one, which loads undici then and only then.
 */
import { fastStart } from './fast-start.js';
import { LiteHeaders } from './lite-headers.js';

/** LiteHeaders, or Node's own with the start-up machinery off (`XAGENT_FAST_START=0`). */
export const Headers: typeof globalThis.Headers = fastStart() ? (LiteHeaders as unknown as typeof globalThis.Headers) : globalThis.Headers;

/** `instanceof` by the object's tag, without loading undici; `new FormData()` builds the real one. */
class LazyFormData {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object FormData]';
  }

  constructor(...args: ConstructorParameters<typeof globalThis.FormData>) {
    // A constructor may return another object: the caller gets undici's FormData, loaded now.
    // biome-ignore lint/correctness/noConstructorReturn: returning the real FormData is the point
    return new globalThis.FormData(...args);
  }
}

/** The lazy FormData, or Node's own with the start-up machinery off. */
export const FormData: typeof globalThis.FormData = fastStart()
  ? (LazyFormData as unknown as typeof globalThis.FormData)
  : globalThis.FormData;

/**
 * `value instanceof ReadableStream`, asking the value's tag first: on Node 20 the global itself is
 * lazy, and reading it loads the web streams modules (~2 ms before the first request) only for the
 * SDK to learn that a JSON body is not a stream.
 */
export function isWebReadableStream(value: unknown): boolean {
  if (!fastStart()) return Boolean(globalThis.ReadableStream) && value instanceof globalThis.ReadableStream;
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.prototype.toString.call(value) === '[object ReadableStream]' &&
    value instanceof globalThis.ReadableStream
  );
}
