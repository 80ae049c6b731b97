import type { Tool } from '../types.js';
import { bashTool } from './bash.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { writeFileTool } from './write-file.js';

/**
 * Every built-in tool, in the order the model is told about them (the contract's order).
 * @example const registry = new ToolRegistry(builtinTools());
 */
export function builtinTools(): Tool[] {
  return [readFileTool, writeFileTool, editFileTool, listDirTool, globTool, grepTool, bashTool];
}
