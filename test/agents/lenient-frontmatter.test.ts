import { describe, expect, it } from 'vitest';
import { parseAgentFile } from '../../src/agents/parse-agent-file.js';

/** Issue 39: an agent file whose description holds ": " is not valid YAML, yet Claude Code reads it; so does xagent. */
describe('agent files read as leniently as Claude Code reads them', () => {
  it('a description holding ": " keeps the whole line', () => {
    const file = '---\nname: reviewer\ndescription: Use it when: the tests fail, or before a merge\ntools: Read, Grep\n---\nReview it.';
    const parsed = parseAgentFile(file, 'reviewer.md');
    expect(parsed).toMatchObject({
      agent: { name: 'reviewer', description: 'Use it when: the tests fail, or before a merge', prompt: 'Review it.' },
    });
  });

  it('lists and continuation lines too', () => {
    const file = '---\nname: scout\ndescription: Finds files: fast\n  and quietly\ntools:\n  - Read\n  - Grep\n---\nFind.';
    expect(parseAgentFile(file, 'scout.md')).toMatchObject({ agent: { description: 'Finds files: fast and quietly' } });
  });

  it('still names a frontmatter that is neither YAML nor key: value lines', () => {
    expect(parseAgentFile('---\nname: x\n{[ broken\n---\nbody', 'x.md')).toMatchObject({
      problem: expect.stringMatching(/not valid YAML/),
    });
  });
});
