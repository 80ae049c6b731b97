/**
 * The inspector benchmark's client, in its own process like a browser tab: connects to the
 * inspector's event stream (argv: port, token), parses every event's JSON as the page does, and
 * prints `connected` after the history and `result` when the run's result record arrives.
 */
import { get } from 'node:http';

const [port, token] = process.argv.slice(2);
get({ host: '127.0.0.1', port: Number(port), path: '/api/events', headers: { 'x-inspector-token': token } }, (res) => {
  if (res.statusCode !== 200) {
    process.stderr.write(`inspector answered ${res.statusCode}\n`);
    process.exit(1);
  }
  res.setEncoding('utf8');
  let pending = '';
  let records = 0;
  res.on('data', (chunk: string) => {
    pending += chunk;
    const events = pending.split('\n\n');
    pending = events.pop() ?? '';
    for (const event of events) {
      const name = /^event: (.*)$/m.exec(event)?.[1];
      const data = /^data: (.*)$/m.exec(event)?.[1];
      if (data === undefined) continue;
      const value = JSON.parse(data) as Array<{ kind?: string }>;
      if (name === 'history') process.stdout.write('connected\n');
      else if (name === 'records') {
        for (const record of value) {
          records++;
          if (record.kind === 'result') process.stdout.write(`result ${records}\n`);
        }
      }
    }
  });
});
