import type { AgentEvent, QueryResult } from '../engine/events.js';
import { claudeCodeName } from '../permissions/claude-tools.js';

/**
 * The fields Claude Code's `-p --output-format json` result has, beside xagent's own, so a script
 * written against Claude Code (`.result`, `.subtype`, `.num_turns`, `.permission_denials`...) runs
 * unchanged. xagent's `reason`, `text`, `turns` stay as they are.
 */
export interface ClaudeCodeResultFields {
  subtype: 'success' | 'error_max_turns' | 'error_during_execution';
  result: string;
  num_turns: number;
  /** Every call refused during the task (by a rule, a mode, a hook or you), in Claude Code's shape. */
  permission_denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }>;
}

export type ResultWithClaudeCodeFields = QueryResult & ClaudeCodeResultFields;

/**
 * A fold over a task's events that completes its result with Claude Code's fields; the CLI's json
 * and stream-json renderers and the library each keep one per task.
 * @example const fold = claudeCodeResultFold(); events.forEach(fold.observe); fold.complete(result).subtype // 'success'
 */
export function claudeCodeResultFold(): {
  observe: (event: AgentEvent) => void;
  complete: (result: QueryResult) => ResultWithClaudeCodeFields;
} {
  const denials = new Map<string, ClaudeCodeResultFields['permission_denials'][number]>();
  const deny = (call: { id: string; name: string; input: unknown } | undefined) => {
    if (call && !denials.has(call.id))
      denials.set(call.id, { tool_name: claudeCodeName(call.name), tool_use_id: call.id, tool_input: call.input });
  };
  return {
    observe: (event) => {
      if (event.type === 'state' && event.decision?.behavior === 'deny') deny(event.call);
    },
    complete: (result) => {
      if (result.decision?.behavior === 'deny') deny(result.call);
      return {
        ...result,
        subtype:
          result.reason === 'final_answer' ? 'success' : result.reason === 'max_turns' ? 'error_max_turns' : 'error_during_execution',
        result: result.text,
        num_turns: result.turns,
        permission_denials: [...denials.values()],
      };
    },
  };
}
