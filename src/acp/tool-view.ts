import path from 'node:path';
import type { ToolKind, ToolCallLocation } from '@agentclientprotocol/sdk';
import type { ToolCall } from '../../machines/types.js';

/** How the editor shows one tool call: a title, the ACP kind (its icon) and the files it touches. */
export interface ToolView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

/** Longest title before it is cut: a bash command can be a whole script. */
const MAX_TITLE = 120;

function field(call: ToolCall, key: string): unknown {
  const input = call.input;
  return input && typeof input === 'object' ? (input as Record<string, unknown>)[key] : undefined;
}

function text(call: ToolCall, key: string): string | undefined {
  const value = field(call, key);
  return typeof value === 'string' ? value : undefined;
}

function clip(title: string): string {
  const line = title.replace(/\s+/g, ' ').trim();
  return line.length > MAX_TITLE ? `${line.slice(0, MAX_TITLE - 1)}…` : line;
}

/** ACP paths are absolute; the model's are relative to the workspace. */
function location(workspace: string, file: string | undefined, line?: number): ToolCallLocation[] {
  if (file === undefined) return [];
  return [{ path: path.resolve(workspace, file), ...(line !== undefined ? { line } : {}) }];
}

/**
 * The editor's view of a call, for every tool the model may name (MCP tools and unknown names are `other`).
 * @example toolView({ id: '1', name: 'bash', input: { command: 'npm test' } }, '/ws') // { title: 'Run npm test', kind: 'execute', locations: [] }
 */
export function toolView(call: ToolCall, workspace: string): ToolView {
  const file = text(call, 'path');
  switch (call.name) {
    case 'read_file': {
      const offset = field(call, 'offset');
      const line = typeof offset === 'number' ? offset : undefined;
      return { title: clip(`Read ${file ?? 'a file'}`), kind: 'read', locations: location(workspace, file, line) };
    }
    case 'write_file':
      return { title: clip(`Write ${file ?? 'a file'}`), kind: 'edit', locations: location(workspace, file) };
    case 'edit_file':
      return { title: clip(`Edit ${file ?? 'a file'}`), kind: 'edit', locations: location(workspace, file) };
    case 'list_dir':
      return { title: clip(`List ${file ?? '.'}`), kind: 'read', locations: location(workspace, file ?? '.') };
    case 'glob':
      return { title: clip(`Find ${text(call, 'pattern') ?? ''}`), kind: 'search', locations: location(workspace, file) };
    case 'grep':
      return { title: clip(`Search for ${text(call, 'pattern') ?? ''}`), kind: 'search', locations: location(workspace, file) };
    case 'bash':
      return { title: clip(`Run ${text(call, 'command') ?? 'a command'}`), kind: 'execute', locations: [] };
    default:
      return {
        title: clip(call.name.startsWith('mcp__') ? call.name.split('__').slice(1).join(': ') : call.name),
        kind: 'other',
        locations: [],
      };
  }
}
