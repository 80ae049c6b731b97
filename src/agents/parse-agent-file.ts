import { createRequire } from 'node:module';
import type { AgentDefinition } from './definition.js';

/** Claude Code's tool names in an agent's `tools`, and the xagent tool each one is. */
const CLAUDE_TOOL: Readonly<Record<string, string>> = {
  read: 'read_file',
  write: 'write_file',
  edit: 'edit_file',
  multiedit: 'edit_file',
  bash: 'bash',
  glob: 'glob',
  grep: 'grep',
  ls: 'list_dir',
  task: 'task',
  agent: 'task',
};

/** An agent's tool names as xagent names them (`Read` is `read_file`); MCP and xagent names pass as they are. */
export function xagentToolName(name: string): string {
  return CLAUDE_TOOL[name.toLowerCase()] ?? name;
}

// yaml is required on the first agent file read, not at start-up: a run without agent files never loads it.
const require = createRequire(import.meta.url);
const parseYaml = (text: string): unknown => (require('yaml') as typeof import('yaml')).parse(text);

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Reads one agent file: `---`, YAML frontmatter with `name` and `description` (required), `tools`
 * (a comma-separated string or a list), `model`, `permissionMode`, then `---` and the system prompt.
 * Unknown keys are ignored, as Claude Code does. Gives the agent, or the problem in one sentence.
 * @example parseAgentFile('---\nname: scout\ndescription: Finds files\ntools: Read, Grep\n---\nFind it.', 'scout.md')
 */
export function parseAgentFile(text: string, source: string): { agent: AgentDefinition } | { problem: string } {
  const match = FRONTMATTER.exec(text.replace(/^\uFEFF/, ''));
  if (!match) return { problem: 'no YAML frontmatter: the file must start with a line "---", the fields, and another "---"' };
  let fields: unknown;
  try {
    fields = parseYaml(match[1]);
  } catch (error) {
    // Claude Code reads `description: Use it when: the tests fail` as it reads: so does xagent.
    fields = lenientFields(match[1]);
    // Only a reading that yields the fields an agent needs stands in for the YAML one.
    const lenient = fields as Record<string, unknown> | null;
    if (typeof lenient?.name !== 'string' || typeof lenient.description !== 'string')
      return { problem: `the frontmatter is not valid YAML: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}` };
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    return { problem: 'the frontmatter is not a mapping of fields' };
  const f = fields as Record<string, unknown>;
  const name = typeof f.name === 'string' ? f.name.trim() : '';
  if (!name) return { problem: 'the frontmatter has no "name"' };
  if (typeof f.description !== 'string' || !f.description.trim()) return { problem: 'the frontmatter has no "description"' };
  const tools = toolList(f.tools);
  if (tools === 'invalid') return { problem: '"tools" must be a comma-separated string or a list of names' };
  if (f.model !== undefined && f.model !== null && typeof f.model !== 'string') return { problem: '"model" must be a string' };
  const model = typeof f.model === 'string' && f.model.trim() && f.model.trim() !== 'inherit' ? f.model.trim() : null;
  return {
    agent: {
      name,
      description: f.description.trim(),
      prompt: text.slice((text.startsWith('\uFEFF') ? 1 : 0) + match[0].length).trim(),
      tools,
      model,
      permissionMode: typeof f.permissionMode === 'string' ? f.permissionMode : null,
      source,
    },
  };
}

function toolList(value: unknown): string[] | null | 'invalid' {
  if (value === undefined || value === null) return null;
  const names = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
  if (!names || names.some((n) => typeof n !== 'string')) return 'invalid';
  const list = (names as string[]).map((n) => n.trim()).filter(Boolean);
  if (list.length === 1 && list[0] === '*') return null;
  return [...new Set(list.map(xagentToolName))];
}

/**
 * The frontmatter read line by line, as Claude Code reads what strict YAML refuses: `key: value`
 * with the rest of the line as the value (`: ` and all), `- item` lines as a list, indented lines
 * continuing the value before them. Null when a line is none of these.
 * @example lenientFields('name: a\ndescription: Use when: tests fail') // { name: 'a', description: 'Use when: tests fail' }
 */
export function lenientFields(frontmatter: string): Record<string, unknown> | null {
  const fields: Record<string, unknown> = {};
  let key: string | null = null;
  for (const line of frontmatter.split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const item = /^\s*-\s+(.*)$/.exec(line);
    const pair = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(line);
    if (item && key !== null) {
      const list = Array.isArray(fields[key]) ? (fields[key] as unknown[]) : [];
      fields[key] = [...list, unquote(item[1])];
    } else if (pair) {
      key = pair[1];
      fields[key] = pair[2] === undefined ? null : unquote(pair[2]);
    } else if (/^\s+\S/.test(line) && key !== null && typeof fields[key] === 'string') {
      fields[key] = `${fields[key] as string} ${line.trim()}`;
    } else return null;
  }
  return fields;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(["'])(.*)\1$/.exec(trimmed);
  return quoted ? quoted[2] : trimmed;
}
