/**
 * xagent as a library: `import { query, tool } from 'xagent-statechart'`.
 * query() runs a task through the same engine, run setup, sessions and inspector as the CLI and
 * yields the stream-json events; tool() defines a custom tool that runs in your process.
 */
export type { PermissionMode } from '../permissions/types.js';
export type { AgentEvent, QueryResult } from '../engine/events.js';
export type { StreamJsonEvent } from '../run/stream-json.js';
export type { TaskOptions } from '../run/task-options.js';
export type { Tool } from '../tools/types.js';
export { FAULTS, UsageError, XagentError, type Fault } from '../errors/xagent-error.js';
export type { CanUseTool, PermissionResult } from './can-use-tool.js';
export type { McpServerOption, QueryOptions } from './options.js';
export type { FunctionHook, HookInput, HookOutput, HooksConfig } from '../hooks/index.js';
export { query } from './query.js';
export { submit, wait, type RestateOptions, type SubmitOptions } from './tasks.js';
export { RestateError } from '../restate/errors.js';
export type { TaskOutput } from '../restate/task-status.js';
export { tool, type ToolDefinition, type ToolExecuteContext, type ToolOutput } from './tool.js';
export { runBatch, type BatchOptions, type BatchProgress, type BatchResult, type BatchTask } from './batch.js';
