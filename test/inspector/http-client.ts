import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A GET with full control of the headers (fetch would not let a test forge Host). */
export function rawGet(port: number, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'GET', headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

/** Reads Server-Sent Events until `until` says enough; returns the events as {event, data, id}. */
export function readSse(port: number, headers: Record<string, string>, until: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/events', headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            const id = /^id: (.*)$/m.exec(block)?.[1];
            if (event && data !== undefined) events.push({ event, data, ...(id === undefined ? {} : { id }) });
          }
          if (until(events)) {
            req.destroy();
            resolve(events);
          }
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end();
  });
}
