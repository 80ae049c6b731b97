import { describe, expect, it } from 'vitest';
import { formatRule, parseRule, RuleParseError } from '../../src/permissions/rules.js';

describe('parseRule', () => {
  it.each([
    ['read_file', { tool: 'read_file' }],
    ['  bash  ', { tool: 'bash' }],
    ['bash(npm test*)', { tool: 'bash', pattern: 'npm test*' }],
    ['bash(echo $(date))', { tool: 'bash', pattern: 'echo $(date)' }],
    ['edit_file(src/**)', { tool: 'edit_file', pattern: 'src/**' }],
    ['write_file( docs/*.md )', { tool: 'write_file', pattern: 'docs/*.md' }],
    ['web_fetch', { tool: 'web_fetch' }],
    ['mcp.server-tool', { tool: 'mcp.server-tool' }],
  ])('reads %j', (text, expected) => {
    expect(parseRule(text)).toEqual(expected);
  });

  it.each([
    ['', 'empty rule'],
    ['   ', 'empty rule'],
    ['bash(npm test', 'missing ")"'],
    ['bash()', 'empty pattern; write "bash"'],
    ['bash(  )', 'empty pattern'],
    ['(npm test)', 'not a tool name'],
    ['rm -rf', 'not a tool name'],
    ['BASH(npm test*)', 'did you mean "bash"'],
    ['read', 'did you mean "Read"'],
    ['Read_File', 'did you mean "read_file"'],
    ['web_fetch(example.com)', '"web_fetch" takes no pattern'],
  ])('rejects %j with a clear reason', (text, problem) => {
    expect(() => parseRule(text)).toThrow(RuleParseError);
    expect(() => parseRule(text)).toThrow(problem);
  });

  it('names the rule in the error', () => {
    expect(() => parseRule('bash(x')).toThrow('bad rule "bash(x"');
  });

  it('writes a rule back as it reads it', () => {
    for (const text of ['bash', 'bash(npm test*)', 'edit_file(src/**)']) expect(formatRule(parseRule(text))).toBe(text);
  });
});
