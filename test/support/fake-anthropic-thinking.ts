/**
 * The fake server's extended thinking, by the API's rules:
 * - `thinking: {type: "enabled", budget_tokens}` needs budget_tokens >= 1024 and < max_tokens;
 * - every thinking block carries a signature over its text; redacted_thinking carries opaque data;
 *   both must come back exactly as sent (a changed text, signature or data is rejected);
 * - with thinking on, the assistant message of the current tool-use turn (the last assistant
 *   message, answered by tool_result blocks) must start with a thinking or redacted_thinking block.
 */
import { createHmac } from 'node:crypto';

type Json = Record<string, unknown>;

const SECRET = 'fake-anthropic-thinking';

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function signThinking(thinking: string): string {
  return createHmac('sha256', SECRET).update(`thinking:${thinking}`).digest('base64');
}

/** Opaque redacted data the fake can recognise as its own. */
export function redactedData(seed: string): string {
  const body = Buffer.from(`redacted:${seed}`).toString('base64');
  return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64')}`;
}

function redactedDataValid(data: unknown): boolean {
  if (typeof data !== 'string') return false;
  const [body, mac] = data.split('.');
  return body !== undefined && mac === createHmac('sha256', SECRET).update(body).digest('base64');
}

/** Whether thinking is on for this request. */
export function thinkingEnabled(body: Json): boolean {
  return isObject(body.thinking) && body.thinking.type === 'enabled';
}

/** Every rule the request's thinking settings and echoed thinking blocks break. */
export function validateThinking(body: Json): string[] {
  const errors: string[] = [];
  const { thinking } = body;
  if (thinking !== undefined) {
    if (!isObject(thinking) || (thinking.type !== 'enabled' && thinking.type !== 'disabled')) {
      errors.push("thinking.type: Input should be 'enabled' or 'disabled'");
    } else if (thinking.type === 'enabled') {
      const budget = thinking.budget_tokens;
      if (!Number.isInteger(budget)) errors.push('thinking.enabled.budget_tokens: Field required');
      else if ((budget as number) < 1024) errors.push('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
      else if ((budget as number) >= (body.max_tokens as number)) {
        errors.push(
          '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
        );
      }
    }
  }
  const messages = Array.isArray(body.messages) ? body.messages : [];
  messages.forEach((message: unknown, i) => {
    if (!isObject(message) || !Array.isArray(message.content)) return;
    message.content.forEach((block: unknown, j) => {
      if (!isObject(block)) return;
      const at = `messages.${i}.content.${j}`;
      if (block.type === 'thinking') {
        if (typeof block.thinking !== 'string' || typeof block.signature !== 'string')
          errors.push(`${at}: thinking blocks need thinking and signature`);
        else if (block.signature !== signThinking(block.thinking)) errors.push(`${at}: Invalid \`signature\` in \`thinking\` block`);
      } else if (block.type === 'redacted_thinking' && !redactedDataValid(block.data)) {
        errors.push(`${at}: Invalid \`data\` in \`redacted_thinking\` block`);
      }
    });
  });
  if (thinkingEnabled(body)) errors.push(...toolTurnStartsWithThinking(messages));
  return errors;
}

function toolTurnStartsWithThinking(messages: unknown[]): string[] {
  const last = messages[messages.length - 1];
  const assistant = messages[messages.length - 2];
  if (!isObject(last) || !isObject(assistant) || assistant.role !== 'assistant' || !Array.isArray(assistant.content)) return [];
  const answersTools = Array.isArray(last.content) && last.content.some((b: unknown) => isObject(b) && b.type === 'tool_result');
  if (!answersTools) return [];
  const first: unknown = assistant.content[0];
  const type = isObject(first) ? first.type : undefined;
  if (type === 'thinking' || type === 'redacted_thinking') return [];
  return [
    `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`,
  ];
}
