/**
 * The engine's vocabulary: messages in the Anthropic shape, tool calls, results, stop reasons.
 * Pure types; nothing here may import anything but other files of machines/.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

/** Blocks the engine does not interpret (thinking, server tools) are carried through untouched. */
export interface OtherBlock {
  type: string;
  [key: string]: unknown;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock;

export interface Message {
  role: 'user' | 'assistant';
  content: Array<ContentBlock | OtherBlock>;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}

/** One model round as the engine sees it, whatever client produced it. */
export interface ModelResponse {
  content: Array<ContentBlock | OtherBlock>;
  /** The API's stop_reason: end_turn, tool_use, max_tokens, refusal, pause_turn, stop_sequence. */
  stopReason: string;
  usage: Usage;
  /** Ids of tool_use blocks whose input was cut off (max_tokens); they are never executed. */
  truncatedToolUseIds?: string[];
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ToolResult {
  content: string;
  isError: boolean;
  /** Set when the tool ran its process inside the OS sandbox (bash with --sandbox). */
  sandboxed?: boolean;
  /** What a subagent spent on the model: rolled up into the task's usage when the result is collected. */
  usage?: Usage;
}

export const STOP_REASONS = [
  'final_answer',
  'max_turns',
  'max_tool_calls',
  'timeout',
  'user_abort',
  'permission_denied',
  'tool_error',
  'model_error',
] as const;

export type StopReason = (typeof STOP_REASONS)[number];

/** Error codes the engine routes on. Recoverable ones go back to the model as tool results. */
export type EngineErrorCode =
  | 'TOOL_INPUT_INVALID'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_INPUT_TRUNCATED'
  | 'TOOL_FAILED'
  | 'MODEL_ERROR'
  | 'PERMISSION_DENIED';

export interface EngineError {
  code: EngineErrorCode;
  message: string;
}

export type PermissionBehavior = 'allow' | 'deny' | 'ask';

/** What was decided for one call and why (a rule and its source, a mode, the default, the user). */
export interface PermissionDecision {
  behavior: PermissionBehavior;
  decidedBy: string;
  /** For deny: go back to the model as an is_error result instead of stopping (plan mode). */
  continueWithFeedback?: boolean;
  message?: string;
}

/** The outcome of validating one call; computed by an injected action, read by pure guards. */
export type Validation = { ok: true } | { ok: false; error: EngineError };
