import { Ajv, type ErrorObject } from 'ajv';
import { PERMISSION_MODES } from '../permissions/types.js';
import type { TaskSpec } from './task-spec.js';

const text = { type: 'string' } as const;
const positive = { type: 'integer', minimum: 1 } as const;
const rules = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const digits = { type: 'string', pattern: '^[0-9]+$' } as const;

/**
 * The JSON Schema of a task spec, as the ingress takes it (`POST /XagentTask/<id>/run/send`): what
 * `xagent submit` sends, and all a request from elsewhere may hold. `xagent submit` checks its spec
 * with it before sending; the worker checks every task with it before anything runs.
 */
export const TASK_SPEC_SCHEMA = {
  type: 'object',
  required: ['prompt', 'cwd'],
  additionalProperties: false,
  properties: {
    prompt: { type: 'string', minLength: 1, pattern: '\\S' },
    cwd: { type: 'string', pattern: '^/', description: 'the workspace, an absolute path on the worker' },
    model: { type: 'string', minLength: 1 },
    modelScript: { type: 'string', pattern: '^/' },
    limits: {
      type: 'object',
      required: ['maxTurns', 'maxToolCalls', 'timeoutMs'],
      additionalProperties: false,
      properties: { maxTurns: positive, maxToolCalls: positive, timeoutMs: positive },
    },
    permissionMode: { enum: [...PERMISSION_MODES] },
    allow: rules,
    deny: rules,
    systemPrompt: text,
    appendSystemPrompt: text,
    sandbox: { type: 'boolean' },
    maxThinkingTokens: digits,
    contextWindow: digits,
    trust: { type: 'boolean' },
    inspectPort: { type: 'integer', minimum: 1, maximum: 65_535 },
    approvalTokenSha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    resume: { type: 'string', pattern: '^[0-9A-Za-z-]+$', description: 'a session id or a unique prefix, on the worker' },
  },
} as const;

// allErrors: `{"prompt": 5}` names the prompt, not only the cwd it also lacks.
const validate = new Ajv({ allErrors: true, strict: true }).compile(TASK_SPEC_SCHEMA);

/** A spec that is not one: the first field at fault (`prompt`, `limits.maxTurns`) and what is wrong with each. */
export interface SpecProblem {
  field: string;
  message: string;
}

/**
 * Checks a spec against TASK_SPEC_SCHEMA; on success gives it back typed (absent lists and limits
 * filled by the caller's defaults).
 * @example checkTaskSpec({ prompt: 5 }) // { ok: false, problem: { field: 'prompt', message: 'prompt must be string; cwd is required' } }
 */
export function checkTaskSpec(
  value: unknown,
): { ok: true; spec: Partial<TaskSpec> & Pick<TaskSpec, 'prompt' | 'cwd'> } | { ok: false; problem: SpecProblem } {
  if (validate(value)) return { ok: true, spec: value as Partial<TaskSpec> & Pick<TaskSpec, 'prompt' | 'cwd'> };
  // A wrong value first, then what is missing: the field a sender got wrong is named first.
  const problems = (validate.errors ?? []).map(problemOf).sort((a, b) => Number(a.missing) - Number(b.missing));
  const first = problems[0];
  if (!first) return { ok: false, problem: { field: '(spec)', message: 'the task spec is not valid' } };
  const messages = [...new Set(problems.map((problem) => problem.message))];
  return { ok: false, problem: { field: first.field, message: messages.join('; ') } };
}

function problemOf(error: ErrorObject): SpecProblem & { missing: boolean } {
  const at = error.instancePath.slice(1).replaceAll('/', '.');
  const params = error.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  const join = (name: string) => (at ? `${at}.${name}` : name);
  if (params.missingProperty)
    return { field: join(params.missingProperty), message: `${join(params.missingProperty)} is required`, missing: true };
  if (params.additionalProperty)
    return {
      field: join(params.additionalProperty),
      message: `${join(params.additionalProperty)} is not a task spec field`,
      missing: false,
    };
  const field = at || '(spec)';
  if (params.allowedValues)
    return { field, message: `${field} must be one of ${params.allowedValues.map(String).join(', ')}`, missing: false };
  return { field, message: `${field} ${error.message ?? 'is not valid'}`, missing: false };
}
