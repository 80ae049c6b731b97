import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../system/atomic-write-sync.js';
import { inspectorChart } from './chart.js';
import type { InspectorHistory } from './history.js';
import { standalonePage } from './page-bundle.js';
import { inspectorPageDir } from './static-files.js';
import { UsageError } from '../errors/xagent-error.js';

export class ExportError extends UsageError {
  override readonly name = 'ExportError';
  override readonly fault = 'usage';
}

/**
 * Writes a recorded run as one self-contained HTML file: the inspector page with its chart layout
 * and the (already redacted) records inside, which opens from disk, needs no server or network,
 * and replays the run with the same controls as the live page.
 * @example await exportRunHtml(loadSessionHistory(trace, { secrets }), 'run.html');
 */
export async function exportRunHtml(history: InspectorHistory, file: string): Promise<{ file: string; bytes: number }> {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ExportError(`--export ${file}: the folder ${dir} does not exist`);
  if (existsSync(target) && statSync(target).isDirectory())
    throw new ExportError(`--export ${file}: is a folder; give a file name such as run.html`);
  const html = standalonePage(inspectorPageDir(), { chart: await inspectorChart(), records: history.records });
  writeFileAtomicSync(target, html, { mode: 0o644 });
  return { file: target, bytes: Buffer.byteLength(html) };
}
