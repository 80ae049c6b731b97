import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin/index.js';

// The registry compiles schemas with validateSchema: false (start-up cost), so the check against
// JSON Schema's meta-schema happens here instead, for every built-in tool.
describe('built-in tool schemas', () => {
  const ajv = new Ajv({ strict: false });
  it.each(builtinTools().map((tool) => [tool.name, tool.inputSchema] as const))('%s has a valid JSON Schema', (_name, schema) => {
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });
});
