import { describe, expect, it } from 'vitest';
import { joinContinuations } from '../../src/permissions/bash-continuations.js';

describe('joinContinuations resolves line continuations as bash does', () => {
  it.each([
    ['npm test \\\n  --watch', 'npm test   --watch'],
    ['echo x >>\\\n~/.bashrc', 'echo x >>~/.bashrc'],
    ['echo "$\\\n(id)"', 'echo "$(id)"'],
    ['echo "a\\\nb"', 'echo "ab"'],
    // An escaped backslash does not continue the line.
    ['echo a\\\\\nb', 'echo a\\\\\nb'],
    ['echo a\\\\\\\nb', 'echo a\\\\b'],
    ['echo "a\\\\"\\\nb', 'echo "a\\\\"b'],
    // Single quotes and $'…' keep the backslash and the newline.
    ["echo 'a\\\nb'", "echo 'a\\\nb'"],
    ["echo $'a\\\nb'", "echo $'a\\\nb'"],
    ["echo $'\\'' \\\nb", "echo $'\\'' b"],
    ["echo $$'\\\n'", "echo $$'\\\n'"],
    // A `#` inside a word is not a comment.
    ['echo a\\#b \\\nc', 'echo a\\#b c'],
    ['git commit -m "fix #12" \\\n  --amend', 'git commit -m "fix #12"   --amend'],
    ["echo '#' \\\nb", "echo '#' b"],
  ])('%j reads as %j', (command, text) => {
    expect(joinContinuations(command)).toEqual({ text, comments: [] });
  });

  it.each([
    ['echo hi #\\\ntouch x', 'comment'],
    ['echo hi \\\n#x\\\ntouch x', 'comment'],
    ['echo hi;#\\\ntouch x', 'comment'],
    ["echo hi # it's \\\ntouch x", 'comment'],
    ['echo a#b \\\nc', 'comment'],
    ['echo `a\\\nb`', 'backticks'],
    ['cat <<E\na\\\nb\nE', 'heredoc'],
    ['echo "$(echo "a\\\nb")"', 'substitution inside double quotes'],
    ['echo hi \\\r\ntouch x', 'carriage return'],
    ['echo hi\r\ntouch x', 'carriage return'],
  ])('leaves %j unresolved and says why (%s)', (command, why) => {
    expect(joinContinuations(command).doubt).toContain(why);
  });

  it('leaves a command without continuations untouched, and notes where bash starts its comments', () => {
    expect(joinContinuations('echo "a #b" # c')).toEqual({ text: 'echo "a #b" # c', comments: [12] });
    expect(joinContinuations("echo 'a'#b ${#x} a#b \\#c;#d").comments).toEqual([25]);
    // bash's blanks are space and tab only: after a form feed, `#` is part of the word.
    expect(joinContinuations('echo a\f#x; b #c').comments).toEqual([13]);
  });
});
