import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagramPaths } from '../../src/diagram/generate.js';

/**
 * Measures the committed SVG as a reader sees it on a 1,280 px slide: every label box is clear of
 * every other label box and of every state box, every text line fits its box, and no text is
 * smaller than 11 px once the picture is scaled to 1,280 px wide. Read from the file's own
 * coordinates, so it measures what is committed, not what a renderer might do.
 */

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const svg = readFileSync(diagramPaths(path.resolve(import.meta.dirname, '../..')).svg, 'utf8');
const num = (s: string | undefined) => Number(s ?? NaN);
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

function stateBoxes(): Box[] {
  return [
    ...svg.matchAll(
      /<g class="state[^"]*" data-state="([^"]+)" transform="translate\(([\d.]+),([\d.]+)\)">\s*<rect width="([\d.]+)" height="([\d.]+)"/g,
    ),
  ].map((m) => ({
    name: m[1]!,
    x: num(m[2]),
    y: num(m[3]),
    width: num(m[4]),
    height: num(m[5]),
  }));
}

function labelBoxes(): Box[] {
  return [...svg.matchAll(/<rect class="label-box"[^>]*>/g)].map((m, k) => ({
    name: `label ${k}: ${svg.slice(m.index, m.index + 400).match(/<text[^>]*>([^<]*)</)?.[1] ?? ''}`,
    x: num(attr(m[0], 'x')),
    y: num(attr(m[0], 'y')),
    width: num(attr(m[0], 'width')),
    height: num(attr(m[0], 'height')),
  }));
}

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function overlapping(list: Box[], others: Box[] = list): string[] {
  return list.flatMap((a, i) => others.filter((b, j) => (others !== list || j > i) && overlap(a, b)).map((b) => `${a.name} / ${b.name}`));
}

describe('the committed SVG diagram, read at slide size', () => {
  const states = stateBoxes();
  const labels = labelBoxes();
  const viewBox = /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(svg)!;
  const scale = 1280 / num(viewBox[1]);

  it('has the eight states and the any-state box, and one label box per arrow', () => {
    expect(states.map((s) => s.name).sort()).toEqual([
      'any_state',
      'append_tool_result',
      'ask_permission',
      'build_context',
      'call_model',
      'done',
      'execute_tool',
      'recover',
      'validate_tool',
    ]);
    expect(labels.length).toBe((svg.match(/data-group="/g) ?? []).length);
  });

  it('draws the root handlers once, on one arrow from the any-state box', () => {
    expect(svg.match(/data-group="[^"]*"/g)!.filter((g) => g.includes('any_state'))).toEqual(['data-group="any_state&gt;done"']);
    expect(svg.match(/data-from="queryEngine"/g)).toHaveLength(2);
  });

  it('keeps every label box clear of the other label boxes', () => {
    expect(overlapping(labels)).toEqual([]);
  });

  it('keeps every label box clear of every state box', () => {
    expect(overlapping(labels, states)).toEqual([]);
  });

  it('keeps every text at least 11 px tall when the picture is 1,280 px wide', () => {
    const sizes = [...svg.matchAll(/font:[^;]*?([\d.]+)px/g)].map((m) => num(m[1]));
    expect(sizes.length).toBeGreaterThan(3);
    expect(Math.min(...sizes) * scale).toBeGreaterThanOrEqual(11);
  });

  it('fits every label line inside its box (monospace: 0.62 em per character)', () => {
    const size = num(/\.edge text \{ font: ([\d.]+)px/.exec(svg)?.[1]);
    const tooWide = [...svg.matchAll(/<rect class="label-box"[^>]*>([\s\S]*?)(?=<rect class="label-box"|<g class="state)/g)].flatMap(
      (m) => {
        const width = num(attr(m[0], 'width'));
        return [...m[1]!.matchAll(/<text[^>]*>([^<]*)</g)]
          .map((t) => t[1]!.replaceAll('&gt;', '>').replaceAll('&lt;', '<').replaceAll('&amp;', '&'))
          .filter((line) => line.length * size * 0.62 > width);
      },
    );
    expect(tooWide).toEqual([]);
  });

  it('explains dashed and red arrows in a legend', () => {
    expect(svg).toContain('class="legend"');
    expect(svg).toMatch(/always: eventless[^<]*\(dashed\)/);
    expect(svg).toMatch(/error\(actor\)[^<]*\(red\)/);
  });
});
