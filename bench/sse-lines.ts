import type { IncomingMessage } from 'node:http';

/**
 * Hands `onEvent` the JSON of each `data:` line of a streamed API response as it arrives: the
 * whole SSE reading of the plain baselines (rows 4, 8 and 13), nothing more.
 * @example request(url, options, (res) => onSseEvents(res, (event) => console.log(event.type)));
 */
export function onSseEvents<T>(res: IncomingMessage, onEvent: (event: T) => void): void {
  res.setEncoding('utf8');
  let pending = '';
  res.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('data: ')) onEvent(JSON.parse(line.slice(6)) as T);
  });
}
