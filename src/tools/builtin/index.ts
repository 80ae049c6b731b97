import type { Tool } from '../types.js';
import { readFileTool } from './read-file.js';

/** Every built-in tool, in the order the model is told about them. */
export function builtinTools(): Tool[] {
  return [readFileTool];
}
