import type { ToolCall } from '../../machines/types.js';
import { parseRules, type PermissionRule } from '../../src/permissions/rules.js';

export const WS = '/home/u/project';

export function rules(
  spec: { allow?: readonly string[]; deny?: readonly string[]; ask?: readonly string[] },
  source = '--test',
): PermissionRule[] {
  return [
    ...parseRules(spec.allow ?? [], 'allow', source),
    ...parseRules(spec.deny ?? [], 'deny', source),
    ...parseRules(spec.ask ?? [], 'ask', source),
  ];
}

let nextId = 0;
export function call(name: string, input: Record<string, unknown>): ToolCall {
  return { id: `toolu_${++nextId}`, name, input };
}

export const bash = (command: string) => call('bash', { command });
export const READ_ONLY = new Set(['read_file', 'list_dir', 'glob', 'grep']);
export const toolOf = (c: ToolCall) => ({ readOnly: READ_ONLY.has(c.name) });
