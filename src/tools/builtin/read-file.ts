import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../types.js';

/** Minimal stand-in; the full tool (confinement, caps, binary detection) replaces it. */
export const readFileTool: Tool = {
  name: 'read_file',
  description: 'Read a text file in the workspace. Returns numbered lines.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path relative to the workspace root.' },
      offset: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
    },
    required: ['path'],
    additionalProperties: false,
  },
  readOnly: true,
  async execute({ input, workspace }) {
    const { path: file } = input as { path: string };
    try {
      const text = await readFile(path.resolve(workspace, file), 'utf8');
      return { content: text.split('\n').map((l, i) => `${i + 1}\t${l}`).join('\n'), isError: false };
    } catch (error) {
      return { content: `Cannot read ${file}: ${(error as Error).message}`, isError: true };
    }
  },
};
