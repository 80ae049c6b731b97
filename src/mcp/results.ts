import type { ToolResult } from '../../machines/types.js';

/**
 * An MCP `tools/call` result as the model reads it: text content as is, `isError` kept,
 * `structuredContent` as JSON when there is no text, and media described in one line each
 * (never raw base64 in the conversation). The registry caps the length like any tool's.
 */

/** The parts of a CallToolResult we read; everything else the server sends is ignored. */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  toolResult?: unknown;
}

type Block = Record<string, unknown>;

/**
 * @example toToolResult({ content: [{ type: 'text', text: 'Echo: hi' }] }) // { content: 'Echo: hi', isError: false }
 * @example toToolResult({ content: [{ type: 'image', data: 'iVBO...', mimeType: 'image/png' }] }) // '[image: image/png, 91 bytes]'
 */
export function toToolResult(result: McpCallResult): ToolResult {
  const blocks = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const parts: string[] = [];
  let hasText = false;
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) continue;
    const b = block as Block;
    if (b.type === 'text' && typeof b.text === 'string') {
      hasText = true;
      parts.push(b.text);
    } else {
      parts.push(describeBlock(b));
    }
  }
  if (!hasText && result.structuredContent !== undefined) parts.unshift(JSON.stringify(result.structuredContent, null, 2));
  // The protocol's older shape: `{ toolResult }` instead of content.
  if (parts.length === 0 && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult, null, 2));
  const content = parts.length > 0 ? parts.join('\n') : '(the tool returned no content)';
  return { content, isError: result.isError === true };
}

function describeBlock(b: Block): string {
  switch (b.type) {
    case 'image':
    case 'audio':
      return `[${b.type}: ${mime(b.mimeType)}, ${sizeOf(b.data)}]`;
    case 'resource': {
      const resource = (typeof b.resource === 'object' && b.resource !== null ? b.resource : {}) as Block;
      const size = typeof resource.text === 'string' ? `${resource.text.length} characters of text` : sizeOf(resource.blob);
      return `[resource: ${String(resource.uri ?? 'no uri')}, ${mime(resource.mimeType)}, ${size}]`;
    }
    case 'resource_link':
      return `[resource link: ${String(b.uri ?? 'no uri')}${b.name ? ` (${String(b.name)})` : ''}, ${mime(b.mimeType)}]`;
    default:
      return `[${typeof b.type === 'string' ? b.type : 'unknown'} content, not shown]`;
  }
}

function mime(value: unknown): string {
  return typeof value === 'string' && value ? value : 'unknown type';
}

/** The decoded size of base64 data, without decoding it. */
function sizeOf(data: unknown): string {
  if (typeof data !== 'string') return 'no data';
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return `${Math.max(0, Math.floor((clean.length * 3) / 4) - padding)} bytes`;
}
