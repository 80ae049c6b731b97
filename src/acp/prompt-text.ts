import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { UsageError } from '../errors/xagent-error.js';

/** A prompt that cannot be turned into text, with what was wrong (answered as invalid params). */
export class PromptContentError extends UsageError {
  override readonly name = 'PromptContentError';
  override readonly fault = 'usage';
}

/** A file URI as a workspace-relative path where it lies inside, else the URI as sent. */
function displayUri(uri: string, workspace: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    const absolute = fileURLToPath(uri);
    const relative = path.relative(workspace, absolute);
    return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative || '.';
  } catch {
    return uri;
  }
}

/**
 * The task text of a `session/prompt`: text blocks as they are, a linked file as its path (the model
 * reads it with read_file), an embedded file (the editor's buffer, unsaved edits too) inside a
 * `<context>` element that names it. Images, audio and binary resources were not offered in the
 * prompt capabilities, so a client that sends them is told so.
 * @throws PromptContentError for content the agent did not offer to accept, or an empty prompt
 * @example promptText([{ type: 'text', text: 'fix' }, { type: 'resource_link', name: 'a.ts', uri: 'file:///ws/a.ts' }], '/ws') // 'fix\n@a.ts'
 */
export function promptText(blocks: readonly ContentBlock[], workspace: string): string {
  const parts = blocks.map((block): string => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'resource_link':
        return `@${displayUri(block.uri, workspace)}`;
      case 'resource': {
        const { resource } = block;
        if (!('text' in resource)) throw new PromptContentError(`binary resource ${resource.uri}: only text resources are accepted`);
        return `<context ref="${displayUri(resource.uri, workspace)}">\n${resource.text}\n</context>`;
      }
      case 'image':
      case 'audio':
        throw new PromptContentError(`${block.type} content is not accepted (promptCapabilities.${block.type} is false)`);
      default: {
        const unreachable: never = block;
        throw new PromptContentError(`unknown content block ${JSON.stringify((unreachable as { type?: unknown }).type)}`);
      }
    }
  });
  const text = parts.join('\n').trim();
  if (!text) throw new PromptContentError('the prompt is empty');
  return text;
}
