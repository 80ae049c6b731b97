import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../src/permissions/bash-command.js';

const texts = (command: string) => splitCommand(command).parts.map((part) => part.text);

describe('splitCommand', () => {
  it.each([
    ['npm test', ['npm test']],
    ['npm   test  --watch ', ['npm test --watch']],
    ['npm test && rm -rf ~', ['npm test', 'rm -rf ~']],
    ['a || b; c | d & e', ['a', 'b', 'c', 'd', 'e']],
    ['a |& b', ['a', 'b']],
    ['a\nb', ['a', 'b']],
    ['(cd x && make) ; ls', ['cd x', 'make', 'ls']],
    ["echo 'a && b; c'", ["echo 'a && b; c'"]],
    ['echo "a && b"', ['echo "a && b"']],
    ['echo a\\;b', ['echo a\\;b']],
    ['if grep -q x f; then rm y; fi', ['grep -q x f', 'rm y']],
    ['{ a; b; }', ['a', 'b']],
    ['ls # && rm -rf ~', ['ls']],
    ['npm test 2>&1 | tee out.log', ['npm test 2>&1', 'tee out.log']],
    ['a \\\n && b', ['a', 'b']],
  ])('reads %j as %j', (command, expected) => {
    const parsed = splitCommand(command);
    expect(parsed.unsure).toBeUndefined();
    expect(parsed.parts.map((p) => p.text)).toEqual(expected);
  });

  it.each([
    ['echo $(rm -rf x)', 'command substitution', ['echo $(rm -rf x)', 'rm -rf x']],
    ['echo "$(whoami) at $(hostname)"', 'expansion', ['echo "$(whoami) at $(hostname)"', 'whoami', 'hostname']],
    ['echo `rm -rf x`', 'command substitution', ['echo `rm -rf x`', 'rm -rf x']],
    ['echo $(echo $(id))', 'command substitution', ['echo $(echo $(id))', 'echo $(id)', 'id']],
    ['diff <(ls a) <(ls b)', 'process substitution', ['diff <(ls a) <(ls b)', 'ls a', 'ls b']],
    ['for f in *.ts; do rm $f; done', 'for', ['rm $f']],
    ['echo $((1 + 2))', 'arithmetic', ['echo $((1 + 2))']],
    ['echo ${HOME:-x}', 'parameter expansion', ['echo ${HOME:-x}']],
    ['cat <<EOF\n$(rm -rf x)\nEOF', 'heredoc', ['cat << EOF', 'rm -rf x']],
    ['x=$(rm y) ls', 'assignment', ['ls', 'rm y']],
  ])('finds every command in %j but is unsure of it (%s)', (command, reason, expected) => {
    const parsed = splitCommand(command);
    expect(parsed.unsure).toContain(reason);
    expect(parsed.parts.map((p) => p.text)).toEqual(expected);
  });

  it.each([
    ['echo "unbalanced', 'does not parse'],
    ["echo 'unbalanced", 'does not parse'],
    ['echo `unbalanced', 'does not parse'],
    ['echo $(unbalanced', 'does not parse'],
    ['echo )', 'does not parse'],
    ['cat <<EOF\nrm -rf ~\nEOF', 'heredoc'],
    ['case $x in a) rm y;; esac', 'case'],
    ['f() { rm -rf ~; }', 'function'],
    ['echo $((1 + $(rm x)))', 'arithmetic'],
    ['echo ${x:-$(rm x)}', 'parameter'],
    ['echo ${x:-"}"}; rm -rf ~', 'parameter'],
    ['((x++))', 'arithmetic'],
    ['[[ a > b ]]', '[['],
    ['(ls) > out', 'group'],
    ['echo $"hi"', 'translated'],
    ["echo 'a'#b; rm x", 'comment'],
  ])('is unsure about %j (%s)', (command, reason) => {
    const parsed = splitCommand(command);
    expect(parsed.unsure).toBeDefined();
    expect(parsed.unsure).toContain(reason);
  });

  it('marks output redirections to files, but not to /dev/null or a descriptor', () => {
    const writes = (command: string) => splitCommand(command).parts.map((part) => part.writesFile);
    expect(writes('npm test > out.log')).toEqual([true]);
    expect(writes('npm test >>out.log')).toEqual([true]);
    expect(writes('npm test &> out.log')).toEqual([true]);
    expect(writes('npm test 2> err.log')).toEqual([true]);
    expect(writes('npm test > /dev/null 2>&1')).toEqual([false]);
    expect(writes('npm test >&2')).toEqual([false]);
    expect(writes('sort < in.txt')).toEqual([false]);
    expect(writes('> ~/.bashrc')).toEqual([true]);
  });

  it('writes redirections into the text so an exact rule can name them', () => {
    expect(texts('npm test >out.log 2>&1')).toEqual(['npm test > out.log 2>&1']);
  });

  it('keeps the unquoted words for deny matching', () => {
    const [part] = splitCommand(`"r"m -rf '/tmp/x'`).parts;
    expect(part.text).toBe(`"r"m -rf '/tmp/x'`);
    expect(part.plain).toBe('rm -rf /tmp/x');
    expect(part.words).toEqual(['rm', '-rf', '/tmp/x']);
  });

  it('is unsure about a command that does not parse, and reads it naively for deny rules (bash runs what precedes the error)', () => {
    const parsed = splitCommand('if true; then rm -rf x > out; fi; echo "oops');
    expect(parsed.unsure).toContain('does not parse');
    expect(parsed.parts.map((part) => part.text)).toContain('rm -rf x > out');
    expect(parsed.parts.every((part) => part.evaluates)).toBe(true);
    expect(parsed.writes).toContain('out');
  });

  it('survives absurd nesting without overflowing the stack', () => {
    const command = `${'echo $('.repeat(3000)}x${')'.repeat(3000)}`;
    expect(splitCommand(command).unsure).toBeDefined();
  });

  it('reads non-ASCII words by characters, not bytes', () => {
    expect(splitCommand('echo "é" > ü.txt').parts).toMatchObject([{ text: 'echo "é" > ü.txt', words: ['echo', 'é'] }]);
  });
});
