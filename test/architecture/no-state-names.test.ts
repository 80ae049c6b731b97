import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';

/**
 * Outside machines/, nothing compares a state's name: the terminal, the timing strip, the renderers
 * and the inspector read what a state means from its tags (machines/state-tags.ts), which every state
 * line carries. A comparison with a state's name would break silently when the chart is reshaped.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every state of the chart by its full path (`call_model`, `call_model.requesting`, ...), read from the machine. */
function statePaths(): Set<string> {
  const paths = new Set<string>();
  const walk = (node: { states: Record<string, unknown> }, prefix: string) => {
    for (const [key, child] of Object.entries(node.states)) {
      const full = prefix ? `${prefix}.${key}` : key;
      paths.add(full);
      walk(child as { states: Record<string, unknown> }, full);
    }
  };
  walk(queryEngine.root, '');
  return paths;
}

const LITERAL = /(['"`])([a-z_]+(?:\.[a-z_]+)*)\1/g;

/**
 * The comparisons with a state's name on one line of code: `x === 'call_model.requesting'`,
 * `name.startsWith('call_model')`, `case 'execute_tool':`. A one-word name that is also a plain word
 * (`done`) counts only where the other side is a state or its name (`event.name === 'done'`, not `outcome.kind === 'done'`).
 */
function stateComparisons(line: string, states: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(LITERAL)) {
    const name = match[2]!;
    if (!states.has(name)) continue;
    const before = line.slice(0, match.index);
    const after = line.slice((match.index ?? 0) + match[0].length);
    const compared =
      /(===|!==|==|!=)\s*$/.test(before) ||
      /^\s*(===|!==|==|!=)/.test(after) ||
      /(startsWith|endsWith|includes)\(\s*$/.test(before) ||
      /\bcase\s+$/.test(before);
    if (!compared) continue;
    const dotted = name.includes('.');
    const aboutStates = /state|name/i.test(before.slice(-40)) || /^\s*(===|!==|==|!=)\s*[\w.?]*(state|name)/i.test(after);
    if (dotted || aboutStates) found.push(name);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|js)$/.test(entry.name) ? [full] : [];
  });
}

describe('state names outside the chart', () => {
  const states = statePaths();

  it('the check finds the comparisons it is meant to find, and leaves plain words alone', () => {
    expect(stateComparisons("if (event.name === 'call_model.requesting') spin();", states)).toEqual(['call_model.requesting']);
    expect(stateComparisons("if (s.name === 'done') return;", states)).toEqual(['done']);
    expect(stateComparisons("if (line?.state === 'execute_tool' && line.call) run();", states)).toEqual(['execute_tool']);
    expect(stateComparisons("if (event.name.startsWith('call_model')) close();", states)).toEqual(['call_model']);
    expect(stateComparisons("return outcome.kind === 'done' ? 0 : 1;", states)).toEqual([]);
    expect(stateComparisons("note({ state: 'call_model.requesting', turn });", states)).toEqual([]);
  });

  it('no file of src/ or inspector/ compares a state name: they read the tags', () => {
    const offences: string[] = [];
    for (const file of [...sourceFiles(path.join(ROOT, 'src')), ...sourceFiles(path.join(ROOT, 'inspector'))]) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*)/.test(line)) return;
          for (const name of stateComparisons(line, states)) offences.push(`${path.relative(ROOT, file)}:${i + 1} compares '${name}'`);
        });
    }
    expect(offences).toEqual([]);
  });
});
