import { afterEach, describe, expect, it } from 'vitest';
import { createHistory } from '../../src/inspector/history.js';
import { startInspectorServer, type InspectorServer } from '../../src/inspector/server.js';
import { rawGet, readSse, type SseEvent } from './http-client.js';

let server: InspectorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start() {
  const history = createHistory();
  history.append({ kind: 'text', text: 'first' });
  server = await startInspectorServer({ history, chart: () => ({ width: 1, height: 1, nodes: [], edges: [] }) });
  return { history, server, port: server.port, auth: { 'x-inspector-token': server.token } };
}

describe('inspector server', () => {
  it('listens on 127.0.0.1 with a random port and a long random token in the printed URL', async () => {
    const { server: s } = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
    const other = await startInspectorServer({ history: createHistory() });
    expect(other.token).not.toBe(s.token);
    await other.close();
  });

  it('refuses every route without the token, and with a wrong one', async () => {
    const { port } = await start();
    for (const path of ['/', '/app.js', '/api/history', '/api/chart', '/api/events']) {
      expect((await rawGet(port, path)).status, path).toBe(403);
    }
    expect((await rawGet(port, '/api/history?token=nope')).status).toBe(403);
    expect((await rawGet(port, '/api/history', { cookie: `xagent_inspector_${port}=nope` })).status).toBe(403);
  });

  it('serves the page with ?token= and sets an HttpOnly, SameSite cookie that authorizes the rest', async () => {
    const { port, server: s } = await start();
    const page = await rawGet(port, `/?token=${s.token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script type="module" src="app.js">');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const history = await rawGet(port, '/api/history', { cookie });
    expect(history.status).toBe(200);
    expect(JSON.parse(history.body)).toMatchObject([{ kind: 'text', text: 'first', i: 0 }]);
  });

  it('refuses a request from another origin even with the token', async () => {
    const { port, auth } = await start();
    expect((await rawGet(port, '/api/history', { ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await rawGet(port, '/api/history', { ...auth, origin: `http://127.0.0.1:${port + 1}` })).status).toBe(403);
    expect((await rawGet(port, '/api/history', { ...auth, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });

  it('refuses a Host other than 127.0.0.1:port or localhost:port (DNS rebinding) even with the token', async () => {
    const { port, auth } = await start();
    expect((await rawGet(port, '/api/history', { ...auth, host: `evil.example:${port}` })).status).toBe(403);
    expect((await rawGet(port, '/api/history', { ...auth, host: '127.0.0.1' })).status).toBe(403);
    expect((await rawGet(port, '/api/history', { ...auth, host: `localhost:${port}` })).status).toBe(200);
  });

  it('serves only the page files, never a path out of the page folder', async () => {
    const { port, auth } = await start();
    expect((await rawGet(port, '/style.css', auth)).headers['content-type']).toContain('text/css');
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json', '/index.html/../../package.json']) {
      expect((await rawGet(port, path, auth)).status, path).toBe(404);
    }
  });

  it('streams the whole history on connect, then the new records', async () => {
    const { port, auth, history } = await start();
    const reading = readSse(port, auth, (events) => events.some((e) => e.event === 'records'));
    setTimeout(() => history.append({ kind: 'text', text: 'second' }), 50);
    const events = await reading;
    expect(events[0]!.event).toBe('history');
    expect(JSON.parse(events[0]!.data)).toMatchObject([{ text: 'first' }]);
    expect(JSON.parse(events.find((e) => e.event === 'records')!.data)).toMatchObject([{ i: 1, text: 'second' }]);
  });

  it("sends the records of one 50 ms stretch as one event, its id the last record's (the page parses and draws once for them)", async () => {
    const { port, auth, history } = await start();
    const reading = readSse(port, auth, (events) => events.some((e) => e.event === 'records'));
    setTimeout(() => {
      for (let n = 0; n < 300; n++) history.append({ kind: 'text', text: `burst ${n}` });
    }, 50);
    const events = (await reading).filter((e) => e.event === 'records');
    expect(events).toHaveLength(1);
    expect((JSON.parse(events[0]!.data) as unknown[]).length).toBe(300);
    expect(events[0]!.id).toBe('300');
  });

  it('sends the records gathered for the next write before the stream ends when the server closes (the result reaches the page)', async () => {
    const { port, auth, history } = await start();
    const events: SseEvent[] = [];
    const ended = new Promise<void>((resolve) => {
      void readSse(port, auth, (seen) => {
        events.splice(0, events.length, ...seen);
        if (seen.length === 1) {
          // Connected: these wait for the next write, and the server closes before it is due.
          for (let n = 0; n < 100; n++) history.append({ kind: 'text', text: `line ${n}` });
          void server?.close();
        }
        const sent = seen.filter((e) => e.event === 'records').flatMap((e) => JSON.parse(e.data) as Array<{ text: string }>);
        if (sent.some((record) => record.text === 'line 99')) resolve();
        return false;
      });
    });
    await ended;
    expect(events.filter((e) => e.event === 'records').flatMap((e) => JSON.parse(e.data) as unknown[])).toHaveLength(100);
  });

  it('resends only what a reconnecting client missed (Last-Event-ID)', async () => {
    const { port, auth, history } = await start();
    history.append({ kind: 'text', text: 'second' });
    const events = await readSse(port, { ...auth, 'last-event-id': '0' }, (e) => e.length > 0);
    expect(JSON.parse(events[0]!.data)).toMatchObject([{ i: 1, text: 'second' }]);
  });
});
