import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../machines/types.js';
import { createPermissionPolicy, parseRules, PERMISSION_MODES } from '../../src/permissions/index.js';
import type { PermissionPrompt } from '../../src/permissions/types.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import type { Tool } from '../../src/tools/types.js';
import { runTask, tempDir } from '../support/engine-harness.js';
import { seededRandom } from '../support/random.js';

const PATHS = ['README.md', 'src/a.ts', 'src/deep/b.ts', 'secrets/key.txt', '../outside.txt'];
const COMMANDS = ['npm test', 'npm test && rm -rf ~', 'ls -la', 'git status; git push', 'echo $(whoami)', 'rm -rf build'];
const RULES = [
  'read_file',
  'write_file(src/**)',
  'edit_file',
  'bash(npm test*)',
  'bash(ls*)',
  'bash(rm*)',
  'bash',
  'glob',
  'grep(secrets/**)',
  'write_file',
];

function randomCall(r: ReturnType<typeof seededRandom>, id: string): ToolCall {
  const name = r.pick(['read_file', 'write_file', 'edit_file', 'bash', 'glob', 'grep', 'list_dir']);
  const path = r.pick(PATHS);
  const input =
    name === 'bash'
      ? { command: r.pick(COMMANDS) }
      : name === 'write_file'
        ? { path, content: 'x' }
        : name === 'edit_file'
          ? { path, old_string: 'a', new_string: 'b' }
          : name === 'glob' || name === 'grep'
            ? { pattern: '*', path }
            : { path };
  return { id, name, input };
}

/** The real tools' names, schemas and read-only flags; execution only records what ran. */
function recordingTools(executed: string[]): Tool[] {
  return builtinTools().map((tool) => ({
    ...tool,
    execute: async () => {
      executed.push(tool.name);
      return { content: 'ok', isError: false };
    },
  }));
}

describe('the permission gate in the engine, over random calls and rule sets', () => {
  it('never executes a call (alone or in a batch) without an allow decision for that call in the trace', async () => {
    const workspace = tempDir();
    let executedTotal = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const r = seededRandom(seed);
      const rules = RULES.filter(() => r.next() < 0.3).flatMap((rule) =>
        parseRules([rule], r.pick(['allow', 'deny', 'ask'] as const), 'test'),
      );
      const mode = r.pick(PERMISSION_MODES);
      const prompt: PermissionPrompt = async () => ({
        decision: r.next() < 0.5 ? { behavior: 'allow', decidedBy: 'user: yes' } : { behavior: 'deny', decidedBy: 'user: no' },
        savedRules: [],
      });
      const calls = Array.from({ length: 1 + Math.floor(r.next() * 3) }, (_, i) => randomCall(r, `s${seed}_${i}`));
      const executed: string[] = [];
      const run = await runTask([{ content: calls.map((c) => ({ type: 'tool_use', ...c })) }, { text: 'done' }], {
        tools: new ToolRegistry(recordingTools(executed)),
        permissions: createPermissionPolicy({ mode, rules, workspace, prompt: r.next() < 0.5 ? prompt : undefined }),
        workspace,
      });
      const entered = run.trace.filter((l) => l.state === 'execute_tool.running');
      for (const line of entered) {
        expect(line.decision?.behavior, `seed ${seed}: ${JSON.stringify(line.call)}`).toBe('allow');
        const asked = run.trace.find((l) => l.state.startsWith('ask_permission.') && l.call?.id === line.call?.id);
        expect(asked, `seed ${seed}: no permission step for ${line.call?.id}`).toBeDefined();
      }
      // Read-only calls the rules allow outright may run together: the batch's line carries each one's decision.
      const batched = run.trace.flatMap((l) => (l.state === 'execute_tool.batch' ? (l.batch ?? []) : []));
      for (const { call, decision } of batched) expect(decision.behavior, `seed ${seed}: ${JSON.stringify(call)}`).toBe('allow');
      expect(executed).toHaveLength(entered.length + batched.length);
      executedTotal += executed.length;
    }
    // The generator must exercise both sides of the gate.
    expect(executedTotal).toBeGreaterThan(20);
  });
});
