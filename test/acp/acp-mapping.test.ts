import { describe, expect, it } from 'vitest';
import { acpStopReason } from '../../src/acp/stop-reason.js';
import { PromptContentError, promptText } from '../../src/acp/prompt-text.js';
import { toolView } from '../../src/acp/tool-view.js';
import { editorMcpServers, withEditorServers } from '../../src/acp/mcp-servers.js';
import { textContent } from '../../src/acp/session-updates.js';
import { STOP_REASONS } from '../../machines/types.js';

describe('ACP mappings', () => {
  it('gives every stop reason of ours an ACP stop reason', () => {
    const mapped = Object.fromEntries(STOP_REASONS.map((reason) => [reason, acpStopReason({ reason })]));
    expect(mapped).toEqual({
      final_answer: 'end_turn',
      max_turns: 'max_turn_requests',
      max_tool_calls: 'max_turn_requests',
      timeout: 'end_turn',
      permission_denied: 'end_turn',
      tool_error: 'end_turn',
      model_error: 'end_turn',
      user_abort: 'cancelled',
    });
    expect(acpStopReason({ reason: 'final_answer', model_stop_reason: 'max_tokens' })).toBe('max_tokens');
    expect(acpStopReason({ reason: 'final_answer', model_stop_reason: 'refusal' })).toBe('refusal');
  });

  it('turns prompt content into the task text and refuses what was not offered', () => {
    expect(
      promptText(
        [
          { type: 'text', text: 'Fix this' },
          { type: 'resource_link', name: 'a.ts', uri: 'file:///ws/src/a.ts' },
          { type: 'resource', resource: { uri: 'file:///ws/b.ts', text: 'const b = 1;' } },
        ],
        '/ws',
      ),
    ).toBe('Fix this\n@src/a.ts\n<context ref="b.ts">\nconst b = 1;\n</context>');
    expect(() => promptText([{ type: 'image', data: 'AA', mimeType: 'image/png' }], '/ws')).toThrow(PromptContentError);
    expect(() => promptText([{ type: 'text', text: '  ' }], '/ws')).toThrow(/empty/);
  });

  it('names each built-in tool call with a title, an ACP kind and its file', () => {
    const view = (name: string, input: unknown) => toolView({ id: '1', name, input }, '/ws');
    expect(view('grep', { pattern: 'TODO' })).toEqual({ title: 'Search for TODO', kind: 'search', locations: [] });
    expect(view('read_file', { path: 'src/a.ts', offset: 10 })).toEqual({
      title: 'Read src/a.ts',
      kind: 'read',
      locations: [{ path: '/ws/src/a.ts', line: 10 }],
    });
    expect(view('bash', { command: `echo ${'x'.repeat(300)}` }).title.length).toBeLessThanOrEqual(120);
    expect(view('mcp__github__create_issue', {})).toMatchObject({ title: 'github: create_issue', kind: 'other' });
  });

  it("takes the editor's MCP servers, keeping their values out of the records, and lets them win a name clash", () => {
    const [stdio, http] = editorMcpServers([
      { name: 'my fs', command: 'npx', args: ['srv'], env: [{ name: 'TOKEN', value: 'secret-token-value' }] },
      { type: 'http', name: 'web', url: 'https://example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer abcdefgh123' }] },
    ]);
    expect(stdio).toMatchObject({ name: 'my_fs', transport: 'stdio', command: 'npx', env: { TOKEN: 'secret-token-value' } });
    expect(stdio?.secrets).toEqual(['secret-token-value']);
    expect(http).toMatchObject({ transport: 'http', headers: { Authorization: 'Bearer abcdefgh123' }, secrets: ['Bearer abcdefgh123'] });
    const own = { ...http!, source: '.mcp.json', url: 'https://project.example/mcp' };
    expect(withEditorServers([own], [http!]).map((s) => [s.name, s.source])).toEqual([['web', 'the editor (session/new)']]);
  });

  it('fences tool output so backticks inside it stay text', () => {
    expect(textContent('a ``` b', true)).toEqual({ type: 'content', content: { type: 'text', text: '````\na ``` b\n````' } });
  });
});
