import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { GENERATED_VALIDATORS, validatorsModule } from '../../scripts/generate-validators.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { precompiledValidator } from '../../src/tools/builtin/input-validators.js';
import { describeErrors, ToolRegistry } from '../../src/tools/registry.js';
import type { CommandSandbox, Tool } from '../../src/tools/types.js';
import { VALIDATOR_OPTIONS } from '../../src/tools/validator-options.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const sandbox: CommandSandbox = {
  summary: 'Runs in a box.',
  wrap: (spec) => ({ ...spec, args: [...spec.args], env: {}, release: () => {} }),
};

/** Inputs every tool must refuse, then each tool's own: missing, wrong type, extra property, minLength, minimum, maximum. */
const notObjects: unknown[] = [null, [], 'text', 42, true, [{ path: 'a' }]];
const invalidInputs: Record<string, unknown[]> = {
  read_file: [
    {},
    { path: 42 },
    { path: 'a', offset: 0 },
    { path: 'a', limit: 1.5 },
    { path: 'a', offset: '2', limit: -1 },
    { path: 'a', file: 'b' },
    { path: null, limit: 0, extra: true, more: [] },
  ],
  write_file: [{ path: 'a' }, { content: 1 }, { path: 'a', content: 'b', mode: 0o644 }, { path: ['a'], content: { text: 'b' } }],
  edit_file: [
    { path: 1, old_string: 'a' },
    { path: 'a', old_string: 'b', new_string: 'c', replace_all: 'yes' },
    { path: 'a', old: 'b', new: 'c' },
  ],
  list_dir: [{ path: [] }, { dir: '.' }, { path: 'x'.repeat(50), recursive: true }],
  glob: [{}, { pattern: '' }, { pattern: 'x', path: 1, y: 2 }, { pattern: 7 }],
  grep: [{ pattern: '', glob: '' }, { pattern: 'a', ignore_case: 1 }, { path: 'src' }, { pattern: 'a', glob: 3, regex: true }],
  bash: [
    {},
    { command: '' },
    { command: 'x', timeout_ms: 0 },
    { command: 'x', timeout_ms: 900_000 },
    { command: 'x', timeout_ms: 1.5 },
    { command: 'x', timeout_ms: '10' },
    { command: 'x', cwd: '/' },
  ],
};
const validInputs: Record<string, unknown[]> = {
  read_file: [{ path: 'a' }, { path: 'a', offset: 2, limit: 10 }],
  write_file: [{ path: 'a', content: '' }],
  edit_file: [{ path: 'a', old_string: 'b', new_string: 'c', replace_all: true }],
  list_dir: [{}, { path: 'src' }],
  glob: [{ pattern: '**/*.ts', path: 'src' }],
  grep: [{ pattern: 'a', path: '.', glob: '*.ts', ignore_case: false }],
  // One astral character is one character for minLength (ajv counts code points, not UTF-16 units).
  bash: [{ command: '😀' }, { command: 'true', timeout_ms: 600_000 }],
};

describe('built-in tool validators compiled at build time', () => {
  it('are what `npm run validators` writes today (the committed file is not stale)', () => {
    const committed = readFileSync(`${root}/${GENERATED_VALIDATORS}`, 'utf8');
    expect(validatorsModule() === committed, 'a built-in schema changed: run `npm run validators` and commit the result').toBe(true);
  });

  it('cover every built-in tool, with or without a sandbox for bash', () => {
    for (const tool of [...builtinTools(), ...builtinTools({ sandbox })]) expect(precompiledValidator(tool), tool.name).toBeDefined();
    expect(Object.keys(invalidInputs)).toEqual(builtinTools().map((tool) => tool.name));
  });

  it.each(builtinTools().map((tool) => [tool.name, tool] as const))(
    '%s: same verdict, same errors, same message as ajv at run time',
    (name, tool) => {
      const precompiled = precompiledValidator(tool);
      if (!precompiled) throw new Error(`no precompiled validator for ${name}: run \`npm run validators\``);
      const runtime = new Ajv(VALIDATOR_OPTIONS).compile(tool.inputSchema);
      for (const input of [...notObjects, ...invalidInputs[name]!]) {
        expect(precompiled(input), JSON.stringify(input)).toBe(false);
        expect(runtime(input)).toBe(false);
        expect(precompiled.errors).toEqual(runtime.errors);
        expect(describeErrors(precompiled.errors!)).toBe(describeErrors(runtime.errors!));
      }
      for (const input of validInputs[name]!) {
        expect(precompiled(input), JSON.stringify(input)).toBe(true);
        expect(runtime(input)).toBe(true);
      }
    },
  );

  it('are not used for a schema that differs from the one compiled, whatever the name', () => {
    const [readFile] = builtinTools();
    const changed = { ...readFile!, inputSchema: { ...readFile!.inputSchema, required: ['path', 'offset'] } };
    expect(precompiledValidator(changed)).toBeUndefined();
    expect(precompiledValidator({ name: 'read_file', inputSchema: { type: 'object' } })).toBeUndefined();
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(precompiledValidator({ name: 'read_file', inputSchema: cyclic })).toBeUndefined();
    expect(precompiledValidator({ name: 'constructor', inputSchema: { type: 'object' } })).toBeUndefined();
    // The same schema under another name is another tool: compiled at run time like any other.
    expect(precompiledValidator({ name: 'my_read_file', inputSchema: readFile!.inputSchema })).toBeUndefined();
  });

  it('leave a custom tool named like a built-in to ajv: its own schema is what the model is held to', () => {
    const custom: Tool = {
      name: 'read_file',
      description: 'Reads a file by id.',
      inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false },
      readOnly: true,
      execute: async () => ({ content: '', isError: false }),
    };
    const registry = new ToolRegistry([custom]);
    expect(registry.validate({ id: 't', name: 'read_file', input: { id: 3 } })).toEqual({ ok: true });
    expect(registry.validate({ id: 't', name: 'read_file', input: { path: 'a' } })).toEqual({
      ok: false,
      error: {
        code: 'TOOL_INPUT_INVALID',
        message: 'Invalid input for read_file: input.id: required property is missing; input: unexpected property "path" (allowed: id)',
      },
    });
  });
});
