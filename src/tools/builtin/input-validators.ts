import type { ErrorObject } from 'ajv';
import type { Tool } from '../types.js';
import { precompiledValidators } from './input-validators.generated.js';

/** What the registry needs of a validator: ajv's compiled function, or its standalone code. */
export type InputValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const table = precompiledValidators as ReadonlyMap<string, { schema: string; validate: InputValidator }>;

/**
 * The validator compiled at build time for a built-in tool (npm run validators), or undefined:
 * the registry then compiles the schema with ajv as for any other tool.
 * A tool gets it only if its schema is, as JSON, the one compiled: a custom tool that reuses a
 * built-in's name, or a built-in whose schema was changed (in the source without regenerating, or
 * mutated at run time), falls back to ajv. One JSON.stringify of a schema per tool and registry
 * costs microseconds, and unlike comparing object identity it cannot be fooled by a mutation.
 * @example const validate = precompiledValidator(readFileTool); // defined: read_file's schema is unchanged
 */
export function precompiledValidator(tool: Pick<Tool, 'name' | 'inputSchema'>): InputValidator | undefined {
  const entry = table.get(tool.name);
  if (!entry) return undefined;
  return schemaJson(tool.inputSchema) === entry.schema ? entry.validate : undefined;
}

/** A custom tool's schema may not be JSON at all (a cycle, a BigInt): then it is not a built-in's. */
function schemaJson(schema: unknown): string | undefined {
  try {
    return JSON.stringify(schema);
  } catch {
    return undefined;
  }
}
