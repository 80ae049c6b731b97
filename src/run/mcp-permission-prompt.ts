import { isDeepStrictEqual } from 'node:util';
import type { PermissionDecision, ToolCall } from '../../machines/types.js';
import { claudeToolInput, claudeToolName } from '../hooks/claude-input.js';
import type { PermissionPrompt } from '../permissions/types.js';
import type { ToolRegistry } from '../tools/registry.js';

/**
 * `--permission-prompt-tool mcp__<server>__<tool>`: in `-p`, an MCP tool answers the questions a
 * person would, as in Claude Code. It gets `{tool_name, input, tool_use_id}` (Claude Code's tool
 * name and input fields) and answers with JSON text: `{"behavior": "allow", "updatedInput": {...}}`
 * or `{"behavior": "deny", "message": "..."}`. Whatever else happens (the tool is missing, fails,
 * answers something else) is a denial that goes back to the model with the reason: never a crash,
 * never a call run without a yes.
 */

export interface McpPermissionPromptOptions {
  /** The tool's name, `mcp__<server>__<tool>`. */
  tool: string;
  /** The run's tools once its MCP servers are up (prepareRun's `tools()`). */
  tools: () => ToolRegistry;
  workspace: string;
  /** --stop-on-denial: the tool's "deny" stops the task (exit 6) instead of going back to the model. */
  stopOnDenial?: boolean;
}

/**
 * Why the named tool cannot be there, known before any question: its server is not one of the run's.
 * @example promptToolProblem('mcp__nobody__ok', [{ name: 'approver' }]) // 'no MCP server "nobody" is configured (servers: approver); ...'
 */
export function promptToolProblem(tool: string, servers: ReadonlyArray<{ name: string }>): string | null {
  const server = tool.slice('mcp__'.length).split('__')[0] ?? '';
  if (servers.some((s) => s.name === server)) return null;
  const names = servers.map((s) => s.name).join(', ') || 'none';
  return `--permission-prompt-tool ${tool}: no MCP server "${server}" is configured (servers: ${names}); every question will be refused`;
}

/**
 * @example const ask = mcpPermissionPrompt({ tool: 'mcp__approver__check', tools: () => run.tools(), workspace });
 */
export function mcpPermissionPrompt(options: McpPermissionPromptOptions): PermissionPrompt {
  const { tool, workspace } = options;
  return async ({ call, pending, signal }) => {
    const asked = `asked because ${pending.decidedBy}`;
    const deny = (why: string, message: string): { decision: PermissionDecision; savedRules: [] } => ({
      decision: {
        behavior: 'deny',
        decidedBy: `permission prompt tool ${tool}: ${why} (${asked})`,
        message,
        ...(options.stopOnDenial ? {} : { continueWithFeedback: true }),
      },
      savedRules: [],
    });
    const unanswered = (why: string) =>
      deny(
        why,
        `Permission to use ${claudeToolName(call.name)} could not be decided: the permission prompt tool ${tool} ${why}. The call was not run.`,
      );
    const registry = options.tools();
    if (!registry.get(tool)) {
      const offered = registry.names().filter((name) => name.startsWith('mcp__'));
      return unanswered(`is not available (MCP tools of this run: ${offered.join(', ') || 'none'})`);
    }
    const claudeInput = claudeToolInput(call.name, call.input, workspace);
    const question: ToolCall = {
      id: `permission-${call.id}`,
      name: tool,
      input: { tool_name: claudeToolName(call.name), input: claudeInput, tool_use_id: call.id },
    };
    let text: string;
    try {
      const validation = registry.validate(question);
      if (!validation.ok) return unanswered(`does not take Claude Code's input (${validation.error.message})`);
      const result = await registry.execute(question, { signal, workspace });
      if (result.isError) return unanswered(`failed: ${result.content}`);
      text = result.content;
    } catch (error) {
      return unanswered(`failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const answer = parseAnswer(text);
    if (typeof answer === 'string') return unanswered(answer);
    if (answer.behavior === 'deny') {
      const message = answer.message || `Permission to use ${claudeToolName(call.name)} was denied by ${tool}.`;
      return deny('deny', message);
    }
    const changed =
      answer.updatedInput !== undefined &&
      !isDeepStrictEqual(answer.updatedInput, call.input) &&
      !isDeepStrictEqual(answer.updatedInput, claudeInput);
    // The chart runs a call as the model wrote it and validated it: a changed input is refused, saying so.
    if (changed) return unanswered('answered allow with a changed input, which xagent does not run (allow it unchanged or deny it)');
    return { decision: { behavior: 'allow', decidedBy: `permission prompt tool ${tool}: allow (${asked})` }, savedRules: [] };
  };
}

type Answer = { behavior: 'allow'; updatedInput?: unknown } | { behavior: 'deny'; message?: string };

/** The tool's text as Claude Code's answer, or what is wrong with it. */
function parseAnswer(text: string): Answer | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `answered ${JSON.stringify(text.slice(0, 200))}, not JSON such as {"behavior": "allow", "updatedInput": {...}} or {"behavior": "deny", "message": "..."}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `answered ${JSON.stringify(value)}, not a JSON object`;
  const answer = value as Record<string, unknown>;
  if (answer.behavior === 'allow') {
    const updated = answer.updatedInput;
    if (updated !== undefined && (typeof updated !== 'object' || updated === null || Array.isArray(updated)))
      return `answered allow with an "updatedInput" that is not an object (${JSON.stringify(updated)})`;
    return { behavior: 'allow', ...(updated !== undefined ? { updatedInput: updated } : {}) };
  }
  if (answer.behavior === 'deny') return { behavior: 'deny', ...(typeof answer.message === 'string' ? { message: answer.message } : {}) };
  return `answered "behavior": ${JSON.stringify(answer.behavior)} (expected "allow" or "deny")`;
}
