import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_STATES } from '../../machines/query-engine.js';
import { drawSvg } from '../../src/diagram/render.js';
import type { Size } from '../../src/diagram/size.js';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { runCli } from '../support/run-cli.js';

/**
 * The views of `xagent diagram` as a person sees them: drawn by Chromium at the size of a slide or
 * a laptop, every text measured on screen (its font size times the SVG's scale), every pair of
 * texts checked for overlap, and the picture checked to fit the window without scrolling.
 */

interface DrawnText {
  text: string;
  /** The state whose title it is, if it is one. */
  state: string | null;
  px: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

async function show(page: Page, svg: string, size: Size): Promise<DrawnText[]> {
  await page.setViewportSize(size);
  await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
  return page.evaluate(() =>
    [...document.querySelectorAll('svg text')].map((node) => {
      const text = node as SVGTextElement;
      const box = text.getBoundingClientRect();
      const scale = text.getScreenCTM()?.a ?? 1;
      const title = text.classList.contains('title') ? text.closest('[data-state]') : null;
      return {
        text: text.textContent ?? '',
        state: title?.getAttribute('data-state') ?? null,
        px: Number.parseFloat(getComputedStyle(text).fontSize) * scale,
        x: box.x,
        y: box.y,
        width: box.width,
        height: box.height,
      };
    }),
  );
}

/** Pairs of texts whose boxes overlap by more than half a pixel each way. */
function overlaps(texts: DrawnText[]): string[] {
  const hit = (a: DrawnText, b: DrawnText) =>
    a.x + 0.5 < b.x + b.width && b.x + 0.5 < a.x + a.width && a.y + 0.5 < b.y + b.height && b.y + 0.5 < a.y + a.height;
  return texts.flatMap((a, i) =>
    texts
      .slice(i + 1)
      .filter((b) => hit(a, b))
      .map((b) => `"${a.text}" / "${b.text}"`),
  );
}

const outside = (texts: DrawnText[], size: Size) =>
  texts
    .filter((t) => t.x < -0.5 || t.y < -0.5 || t.x + t.width > size.width + 0.5 || t.y + t.height > size.height + 0.5)
    .map((t) => t.text);

describe.runIf(browserTestsRun)('the diagram views in a real browser', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const size of [
    { width: 1920, height: 1080 },
    { width: 1280, height: 800 },
  ]) {
    it(`--depth 1 at ${size.width}x${size.height} draws the eight top-level names at 14 px or more, no text overlapping, nothing outside`, async () => {
      const { svg } = await drawSvg({ depth: 1, size });
      const texts = await show(page, svg, size);
      const titles = texts.filter((t) => t.state !== null && !t.state.includes('.') && t.state !== 'any_state');
      expect(titles.map((t) => t.state).sort()).toEqual([...ENGINE_STATES].sort());
      for (const title of titles) expect(title.px, `${title.text} at ${title.px.toFixed(1)} px`).toBeGreaterThanOrEqual(14);
      expect(overlaps(texts)).toEqual([]);
      expect(outside(texts, size)).toEqual([]);
    });
  }

  for (const state of ['call_model', 'ask_permission']) {
    it(`--state ${state} fits 1920x1080 with every name and label at 12 px or more, none overlapping`, async () => {
      const size = { width: 1920, height: 1080 };
      const { svg } = await drawSvg({ state, size });
      const texts = await show(page, svg, size);
      expect(texts.some((t) => t.state === state)).toBe(true);
      const small = texts.filter((t) => t.px < 12).map((t) => `${t.text} (${t.px.toFixed(1)} px)`);
      expect(small).toEqual([]);
      expect(overlaps(texts)).toEqual([]);
      expect(outside(texts, size)).toEqual([]);
    });
  }

  it('--format png and --format pdf write files a viewer opens, at the size asked', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'xagent-views-'));
    try {
      const png = path.join(dir, 'overview.png');
      const pdf = path.join(dir, 'call_model.pdf');
      expect((await runCli(['diagram', '--depth', '1', '--format', 'png', '--size', '1280x800', '--out', png])).code).toBe(0);
      expect((await runCli(['diagram', '--state', 'call_model', '--format', 'pdf', '--out', pdf])).code).toBe(0);
      const bytes = readFileSync(png);
      expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1280, 800]);
      // The browser as the viewer: it decodes the PNG and opens the PDF in its own viewer.
      await page.setContent(`<img src="data:image/png;base64,${bytes.toString('base64')}">`);
      const natural = await page.$eval('img', async (img) => {
        const image = img as HTMLImageElement;
        await image.decode();
        return [image.naturalWidth, image.naturalHeight];
      });
      expect(natural).toEqual([1280, 800]);
      const document = readFileSync(pdf, 'latin1');
      expect(document.startsWith('%PDF-')).toBe(true);
      expect(document).toMatch(/\/Type\s*\/Pages[^>]*\/Count 1/);
      expect(document).toMatch(/\/MediaBox \[0 0 1440 810\]/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
