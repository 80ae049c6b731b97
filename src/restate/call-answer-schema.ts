import { Ajv } from 'ajv';
import type { CallAnswer } from './task-status.js';

/**
 * The JSON Schema of an answer to a call (`POST /XagentTask/<id>/answer`, what `xagent approve`
 * and `xagent deny` send). The `answer` handler checks it first: a malformed answer is refused
 * for good (400), never retried, and resolves nothing.
 */
export const CALL_ANSWER_SCHEMA = {
  type: 'object',
  required: ['tool_use_id', 'answer'],
  additionalProperties: false,
  properties: {
    tool_use_id: { type: 'string', minLength: 1 },
    answer: {
      oneOf: [
        { type: 'object', required: ['kind'], additionalProperties: false, properties: { kind: { enum: ['yes', 'no'] } } },
        {
          type: 'object',
          required: ['kind', 'text'],
          additionalProperties: false,
          properties: { kind: { const: 'feedback' }, text: { type: 'string', minLength: 1 } },
        },
      ],
    },
    by: { type: 'string', maxLength: 200 },
    token: { type: 'string' },
  },
} as const;

const validate = new Ajv({ strict: true }).compile(CALL_ANSWER_SCHEMA);

/**
 * @example isCallAnswer({ tool_use_id: 'toolu_1', answer: { kind: 'yes' } }) // true
 * @example isCallAnswer({ tool_use_id: 'toolu_1', answer: { kind: 'yes' }, token: 5 }) // false
 */
export function isCallAnswer(value: unknown): value is CallAnswer {
  return validate(value);
}
