/**
 * The fake server's request validation: the rules the real Messages API enforces and that an
 * agent loop most easily breaks. Written independently of src/model/request.ts on purpose, so a
 * bug there is caught here rather than copied. Messages mirror the real API's wording.
 */

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;

/** Top-level fields the real API knows; anything else is "Extra inputs are not permitted". */
const KNOWN_FIELDS = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'stream',
  'metadata',
  'stop_sequences',
  'thinking',
  'cache_control',
  'service_tier',
  'output_config',
  'container',
  'mcp_servers',
  'context_management',
]);
/** Rejected by the API version the SDK 1.x sends (anthropic-version 2026-10-21). */
const SAMPLING_FIELDS = ['temperature', 'top_p', 'top_k'];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every rule the body breaks, as the API would word it; empty when the request is valid.
 * @example validateMessagesRequest({ model: 'm', max_tokens: 10, messages: [] }) // => ['messages: ...']
 */
export function validateMessagesRequest(body: unknown): string[] {
  if (!isObject(body)) return ['request body must be a JSON object'];
  const errors: string[] = [];
  for (const key of Object.keys(body)) {
    if (SAMPLING_FIELDS.includes(key)) errors.push(`${key}: is not supported with anthropic-version 2026-10-21`);
    else if (!KNOWN_FIELDS.has(key)) errors.push(`${key}: Extra inputs are not permitted`);
  }
  if (typeof body.model !== 'string' || body.model === '') errors.push('model: Field required');
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    errors.push('max_tokens: Field required (a positive integer)');
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean') errors.push('stream: Input should be a valid boolean');
  errors.push(...validateSystem(body.system));
  errors.push(...validateTools(body.tools));
  errors.push(...validateMessages(body.messages));
  return errors;
}

function validateSystem(system: unknown): string[] {
  if (system === undefined || typeof system === 'string') return [];
  if (Array.isArray(system) && system.every((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string' && b.text !== '')) {
    return [];
  }
  return ['system: Input should be a string or a list of non-empty text blocks'];
}

function validateTools(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return ['tools: Input should be a valid list'];
  const errors: string[] = [];
  const seen = new Set<string>();
  tools.forEach((tool: unknown, i) => {
    if (!isObject(tool)) {
      errors.push(`tools.${i}: Input should be an object`);
      return;
    }
    const name = tool.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      errors.push(`tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
    } else if (seen.has(name)) {
      errors.push(`tools: Tool names must be unique (${name})`);
    } else seen.add(name);
    if (tool.description !== undefined && typeof tool.description !== 'string') {
      errors.push(`tools.${i}.description: Input should be a valid string`);
    }
    if (!isObject(tool.input_schema)) errors.push(`tools.${i}.input_schema: Field required`);
    else if (tool.input_schema.type !== 'object') errors.push(`tools.${i}.input_schema.type: Input should be 'object'`);
  });
  return errors;
}

function validateMessages(messages: unknown): string[] {
  if (!Array.isArray(messages) || messages.length === 0) return ['messages: at least one message is required'];
  const errors: string[] = [];
  const toolUseIds = new Set<string>();
  messages.forEach((message: unknown, i) => {
    if (!isObject(message)) {
      errors.push(`messages.${i}: Input should be an object`);
      return;
    }
    if (message.role !== 'user' && message.role !== 'assistant') {
      errors.push(`messages.${i}.role: Input should be 'user' or 'assistant'`);
      return;
    }
    if (i === 0 && message.role !== 'user') errors.push('messages: first message must use the "user" role');
    const previous: unknown = messages[i - 1];
    if (i > 0 && isObject(previous) && previous.role === message.role) {
      errors.push(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row (messages.${i - 1} and messages.${i})`,
      );
    }
    const isFinalAssistant = i === messages.length - 1 && message.role === 'assistant';
    errors.push(...validateContent(message.content, `messages.${i}`, message.role, isFinalAssistant, toolUseIds));
  });
  errors.push(...validatePairing(messages));
  return errors;
}

function validateContent(content: unknown, where: string, role: string, mayBeEmpty: boolean, toolUseIds: Set<string>): string[] {
  if (typeof content === 'string') {
    return content === '' && !mayBeEmpty
      ? [`${where}: all messages must have non-empty content except for the optional final assistant message`]
      : [];
  }
  if (!Array.isArray(content)) return [`${where}.content: Input should be a string or a list of blocks`];
  if (content.length === 0 && !mayBeEmpty) {
    return [`${where}: all messages must have non-empty content except for the optional final assistant message`];
  }
  const errors: string[] = [];
  let seenOther = false;
  content.forEach((block: unknown, j) => {
    const at = `${where}.content.${j}`;
    if (!isObject(block) || typeof block.type !== 'string') {
      errors.push(`${at}: Input should be a content block`);
      return;
    }
    switch (block.type) {
      case 'text':
        if (typeof block.text !== 'string' || block.text === '') errors.push(`${at}: text content blocks must be non-empty`);
        break;
      case 'tool_use':
        if (role !== 'assistant') errors.push(`${at}: tool_use blocks may only appear in assistant messages`);
        if (typeof block.id !== 'string' || !TOOL_USE_ID.test(block.id))
          errors.push(`${at}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
        else if (toolUseIds.has(block.id)) errors.push(`${at}: tool_use ids must be unique (${block.id})`);
        else toolUseIds.add(block.id);
        if (typeof block.name !== 'string' || block.name === '') errors.push(`${at}.name: Field required`);
        if (!isObject(block.input)) errors.push(`${at}.input: Input should be a valid dictionary`);
        break;
      case 'tool_result':
        if (role !== 'user') errors.push(`${at}: tool_result blocks may only appear in user messages`);
        if (seenOther) errors.push(`${at}: tool_result blocks must come first in a user message, before any other content`);
        if (typeof block.tool_use_id !== 'string') errors.push(`${at}.tool_use_id: Field required`);
        errors.push(...validateToolResultContent(block, at));
        break;
      default:
        break; // thinking, images, server tools: not checked beyond their type
    }
    if (block.type !== 'tool_result') seenOther = true;
  });
  return errors;
}

function validateToolResultContent(block: Json, at: string): string[] {
  const { content } = block;
  if (block.is_error !== undefined && typeof block.is_error !== 'boolean') return [`${at}.is_error: Input should be a valid boolean`];
  const empty = content === undefined || content === '' || (Array.isArray(content) && content.length === 0);
  if (empty && block.is_error === true) return [`${at}: content cannot be empty if \`is_error\` is true`];
  if (content === undefined || typeof content === 'string') return [];
  if (Array.isArray(content) && content.every((c) => isObject(c) && (c.type === 'text' || c.type === 'image'))) return [];
  return [`${at}.content: Input should be a string or a list of text or image blocks`];
}

function blockIds(message: unknown, type: 'tool_use' | 'tool_result'): string[] {
  if (!isObject(message) || !Array.isArray(message.content)) return [];
  const key = type === 'tool_use' ? 'id' : 'tool_use_id';
  return message.content.filter((b): b is Json => isObject(b) && b.type === type).map((b) => String(b[key]));
}

/** Each tool_use answered by exactly one tool_result in the very next message; no result without a use. */
function validatePairing(messages: unknown[]): string[] {
  const errors: string[] = [];
  messages.forEach((message, i) => {
    const results = blockIds(message, 'tool_result');
    const uses = i > 0 ? blockIds(messages[i - 1], 'tool_use') : [];
    if (isObject(message) && message.role === 'assistant') {
      const ids = blockIds(message, 'tool_use');
      const next = messages[i + 1];
      const answered = blockIds(next, 'tool_result');
      const missing = ids.filter((id) => !answered.includes(id));
      if (missing.length > 0) {
        errors.push(
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
    const unexpected = results.filter((id) => !uses.includes(id));
    if (unexpected.length > 0) {
      errors.push(
        `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    const duplicates = results.filter((id, k) => results.indexOf(id) !== k);
    if (duplicates.length > 0)
      errors.push(`messages.${i}.content: each tool_use_id may have only one tool_result: ${duplicates.join(', ')}`);
  });
  return errors;
}
