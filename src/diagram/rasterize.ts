import { existsSync } from 'node:fs';
import { UsageError } from '../errors/xagent-error.js';
import type { Size } from './size.js';

/** The renderers a PNG or PDF comes from: a real browser, the same SVG a viewer would show. */
export type RasterFormat = 'png' | 'pdf';

/** Where Chromium is: `XAGENT_CHROMIUM`, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return [env.XAGENT_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p !== undefined && p !== '' && existsSync(p));
}

/** Why a PNG or PDF cannot be made here, in words a person can act on (exit 2, like a setting that cannot be honoured). */
export class RasterUnavailable extends UsageError {
  override readonly name: string = 'RasterUnavailable';
  override readonly fault = 'config' as const;
}

/**
 * The SVG drawn by headless Chromium (through playwright-core) at `size`: a PNG screenshot or a
 * one-page PDF of that size. playwright-core is loaded only here, so nothing else pays for it.
 * @example writeFileSync('chart.png', await rasterize(svg, 'png', { width: 1920, height: 1080 }));
 */
export async function rasterize(svg: string, format: RasterFormat, size: Size, env: NodeJS.ProcessEnv = process.env): Promise<Uint8Array> {
  const executablePath = chromiumPath(env);
  if (!executablePath)
    throw new RasterUnavailable(
      `--format ${format} draws with Chromium, which is not installed: install it (apt-get install chromium) or set XAGENT_CHROMIUM`,
    );
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch {
    throw new RasterUnavailable(`--format ${format} needs the playwright-core package: npm install playwright-core`);
  }
  const browser = await playwright.chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: size });
    await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff">${svg}</body></html>`);
    if (format === 'png') return await page.screenshot({ type: 'png', clip: { x: 0, y: 0, ...size } });
    return await page.pdf({ width: `${size.width}px`, height: `${size.height}px`, printBackground: true, pageRanges: '1' });
  } finally {
    await browser.close();
  }
}
