import type { IncomingMessage } from 'node:http';
import { LiteHeaders } from './lite-headers.js';

/**
 * What `nodeHttpFetch` resolves with: the parts of a Fetch `Response` the Anthropic SDK reads
 * (status, ok, headers, url, body, text(), json()), over node:http's response.
 *
 * `body` is the `IncomingMessage` itself, a Node stream: the SDK reads a body through its async
 * iterator when it has one, so the SSE bytes go from the socket to the SDK's decoder without a
 * WHATWG stream in between. The web-stream adapter cost ~0.1 ms of CPU per request and the
 * global `Response` loads undici (bench/README.md, issue 17).
 * @example const response = new HttpResponse(res, url); await response.text();
 */
export class HttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = 'basic';
  readonly body: IncomingMessage | null;
  private used = false;

  constructor(message: IncomingMessage, url: string) {
    this.status = message.statusCode ?? 502;
    this.statusText = message.statusMessage ?? '';
    this.url = url;
    this.headers = new LiteHeaders();
    const raw = message.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) this.headers.append(raw[i], raw[i + 1]);
    // A Response carries no body for these statuses (the Fetch standard's "null body status").
    const noBody = this.status === 101 || this.status === 204 || this.status === 205 || this.status === 304;
    if (noBody) message.resume();
    this.body = noBody ? null : message;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.used || this.body?.readableDidRead === true;
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** Cloning would mean teeing the socket stream; nothing on our request path clones, so say so plainly. */
  clone(): never {
    throw new TypeError('HttpResponse.clone() is not supported: read the body once (text(), json() or body)');
  }

  private async bytes(): Promise<Buffer> {
    if (this.bodyUsed) throw new TypeError('Body has already been read');
    this.used = true;
    if (this.body === null) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    for await (const chunk of this.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
}
