import type { CommandSandbox, Tool } from '../types.js';
import { bashTool, createBashTool } from './bash.js';
import { editFileTool } from './edit-file.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { listDirTool } from './list-dir.js';
import { readFileTool } from './read-file.js';
import { writeFileTool } from './write-file.js';

/**
 * Every built-in tool, in the order the model is told about them (the contract's order).
 * With a sandbox, `bash` runs every command inside it.
 * @example const registry = new ToolRegistry(builtinTools());
 */
export function builtinTools(options: { sandbox?: CommandSandbox } = {}): Tool[] {
  const bash = options.sandbox ? createBashTool({ sandbox: options.sandbox }) : bashTool;
  return [readFileTool, writeFileTool, editFileTool, listDirTool, globTool, grepTool, bash];
}
