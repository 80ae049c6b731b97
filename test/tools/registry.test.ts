import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { MAX_RESULT_CHARS } from '../../src/tools/truncate.js';
import type { Tool } from '../../src/tools/types.js';
import { tempDir } from './helpers.js';

const registry = new ToolRegistry(builtinTools());

function invalid(name: string, input: unknown): string {
  const v = registry.validate({ id: 't1', name, input });
  if (v.ok) throw new Error('expected a validation error');
  expect(v.error.code).toBe('TOOL_INPUT_INVALID');
  return v.error.message;
}

describe('tool registry', () => {
  it('offers the seven built-in tools in the contract order', () => {
    expect(registry.names()).toEqual(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep', 'bash']);
  });

  it('marks exactly read_file, list_dir, glob and grep as read-only', () => {
    const readOnly = builtinTools()
      .filter((t) => t.readOnly)
      .map((t) => t.name);
    expect(readOnly).toEqual(['read_file', 'list_dir', 'glob', 'grep']);
  });

  it('gives every tool a description and an object schema with the contract inputs', () => {
    const inputs = Object.fromEntries(
      registry.specs().map((s) => [s.name, Object.keys((s.input_schema as { properties: object }).properties)]),
    );
    expect(inputs).toEqual({
      read_file: ['path', 'offset', 'limit'],
      write_file: ['path', 'content'],
      edit_file: ['path', 'old_string', 'new_string', 'replace_all'],
      list_dir: ['path'],
      glob: ['pattern', 'path'],
      grep: ['pattern', 'path', 'glob', 'ignore_case'],
      bash: ['command', 'timeout_ms'],
    });
    for (const spec of registry.specs()) expect(spec.description.length).toBeGreaterThan(40);
  });

  it('accepts valid input', () => {
    expect(registry.validate({ id: 't', name: 'read_file', input: { path: 'a', offset: 2 } })).toEqual({ ok: true });
  });

  it('names a missing required field', () => {
    expect(invalid('write_file', { path: 'a.txt' })).toContain('input.content: required property is missing');
  });

  it('names a field of the wrong type and what it got', () => {
    expect(invalid('read_file', { path: 42 })).toContain('input.path: must be string (got number 42)');
  });

  it('names an unexpected property and lists the allowed ones', () => {
    expect(invalid('read_file', { path: 'a', file: 'b' })).toContain('unexpected property "file" (allowed: path, offset, limit)');
  });

  it('reports every error at once', () => {
    const message = invalid('edit_file', { path: 1, old_string: 'a' });
    expect(message).toContain('input.path: must be string');
    expect(message).toContain('input.new_string: required property is missing');
  });

  it('refuses a bash timeout above ten minutes, naming the field and the limit', () => {
    expect(invalid('bash', { command: 'true', timeout_ms: 900_000 })).toContain('input.timeout_ms: must be <= 600000');
  });

  it('refuses input that is not an object', () => {
    expect(invalid('glob', 'src/**')).toContain('input: must be object');
  });

  it('reports an unknown tool with the list of tools', () => {
    const v = registry.validate({ id: 't', name: 'delete_everything', input: {} });
    expect(v).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_FOUND' } });
    if (!v.ok) expect(v.error.message).toContain('read_file, write_file');
  });

  it('caps the result of any tool with a truncation notice', async () => {
    const loud: Tool = {
      name: 'loud',
      description: 'returns too much',
      inputSchema: { type: 'object' },
      readOnly: true,
      execute: async () => ({ content: 'x'.repeat(100_000), isError: false }),
    };
    const result = await new ToolRegistry([loud]).execute(
      { id: 't', name: 'loud', input: {} },
      { signal: new AbortController().signal, workspace: await tempDir() },
    );
    expect(result.content.length).toBeLessThanOrEqual(MAX_RESULT_CHARS);
    expect(result.content).toMatch(/\[output truncated: showing the first \d+ of 100000 characters/);
  });
});
