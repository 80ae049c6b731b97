import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';
import type { Tool } from '../tools/types.js';
import type { McpConnection, ServerTool } from './connection.js';

/** What the API accepts as a tool name. */
const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;

/**
 * A server's tool as one of ours: `mcp__<server>__<tool>`, the server's description and input
 * schema (validated by the registry with ajv like a built-in's), read-only only when the server
 * says so (`annotations.readOnlyHint`; it only matters in plan mode, MCP tools still ask).
 * Returns a reason instead when the tool cannot be offered to the model.
 * @example const tool = mcpTool(connection, { name: 'echo', inputSchema: { type: 'object' } }); // tool.name === 'mcp__everything__echo'
 */
export function mcpTool(connection: McpConnection, info: ServerTool): Tool | { skipped: string } {
  const name = `mcp__${connection.config.name}__${info.name}`;
  if (!API_TOOL_NAME.test(name)) {
    return { skipped: `its name "${name}" is not 1 to 64 letters, digits, "_" or "-"` };
  }
  // "$schema" tells ajv which draft to load, and the model nothing; without it any draft compiles.
  const { $schema: _ignored, ...inputSchema } = info.inputSchema;
  const problem = schemaProblem(inputSchema);
  if (problem) return { skipped: `its input schema cannot be used (${problem})` };
  return {
    name,
    description: info.description?.trim() || `Tool "${info.name}" of the MCP server "${connection.config.name}".`,
    inputSchema,
    readOnly: info.annotations?.readOnlyHint === true,
    execute: ({ input, signal }) => connection.call(info.name, input, signal),
  };
}

/** A schema ajv cannot compile would make every call fail in the registry: such tools are left out at start. */
function schemaProblem(schema: Record<string, unknown>): string | undefined {
  ajv ??= new (require('ajv') as typeof import('ajv')).Ajv({ allErrors: true, strict: false, validateSchema: false, logger: false });
  try {
    ajv.compile(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
