/**
 * The ajv options every tool input validator is compiled with: at run time by the registry, and
 * ahead of time for the built-in tools (scripts/generate-validators.ts), so both paths report the
 * same errors and `describeErrors` words them the same.
 * - allErrors: the model reads every problem at once. verbose: errors carry the offending value.
 * - validateSchema: false skips compiling JSON Schema's meta-schema (~60 ms of CPU at the first
 *   tool call); a schema that cannot compile still throws. The built-ins' schemas are checked
 *   against the meta-schema in test/tools/builtin-schemas.test.ts instead.
 * - logger: false: a schema from an MCP server with formats ajv does not know must not print over the UI.
 * @example new Ajv(VALIDATOR_OPTIONS).compile(tool.inputSchema)
 */
export const VALIDATOR_OPTIONS = Object.freeze({
  allErrors: true,
  strict: false,
  verbose: true,
  validateSchema: false,
  logger: false,
} as const);
