import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPermission } from '../../src/permissions/check-permission.js';
import { parseRules } from '../../src/permissions/rules.js';
import { bash, DECOY_TEXT, layout, sandboxFor } from './helpers.js';
import { runsHere } from '../support/system-packages.js';

/** These tests run commands in real bubblewrap; without it (outside CI) they skip, and the run says so. */
const BWRAP = runsHere('bwrap');

/**
 * Ordinary ways to delete or wipe a file that a deny rule `bash(rm*)` does not see (issue 19's
 * adversarial pass found 22 of 46 forms get through). `T` is the target file's absolute path.
 */
const EVASIONS: ReadonlyArray<readonly [string, (target: string) => string]> = [
  ['find -delete', (t) => `find ${t} -delete`],
  ['xargs rm', (t) => `echo ${t} | xargs rm`],
  ['x=rm; $x', (t) => `x=rm; $x ${t}`],
  ['python3 -c', (t) => `python3 -c 'import os; os.remove("${t}")'`],
  ['bash -c', (t) => `bash -c 'rm ${t}'`],
  ["$'\\x72\\x6d'", (t) => `$'\\x72\\x6d' ${t}`],
  ['perl -e unlink', (t) => `perl -e 'unlink "${t}" or die "$!\\n"'`],
  ['sh -c', (t) => `sh -c 'rm ${t}'`],
  ['eval', (t) => `eval "rm ${t}"`],
  ['unlink', (t) => `unlink ${t}`],
  ['shred -u', (t) => `shred -u ${t}`],
  ['mv away', (t) => `mv ${t} ${t}.gone`],
  ['echo | bash', (t) => `echo 'rm ${t}' | bash`],
  ['node -e', (t) => `node -e 'require("fs").unlinkSync("${t}")'`],
  [': > (truncate by redirection)', (t) => `: > ${t}`],
  ['cp /dev/null', (t) => `cp /dev/null ${t}`],
  ['a=r; b=m; $a$b', (t) => `a=r; b=m; $a$b ${t}`],
  ['$(echo rm)', (t) => `$(echo rm) ${t}`],
  ['xargs rm <<<', (t) => `xargs rm <<< ${t}`],
  ['dd of=', (t) => `dd if=/dev/null of=${t} 2>&1`],
  ['truncate -s 0', (t) => `truncate -s 0 ${t}`],
  ['timeout 5 rm', (t) => `timeout 5 rm ${t}`],
];

const denyRm = parseRules(['bash(rm*)'], 'deny', 'test');

/** The file as it stood, or that it is gone / emptied. */
function state(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '(gone)';
}

describe('the deny rule bash(rm*) is evaded; the sandbox still holds (real bwrap)', () => {
  it('lists 22 evasions', () => {
    expect(EVASIONS).toHaveLength(22);
  });

  // The bash rule reader sees through these wrappers (issue 18), so the deny rule catches them; the
  // other 16 no rule reader can see, and only the sandbox holds them.
  const CAUGHT_BY_THE_RULE = new Set(['xargs rm', 'bash -c', 'sh -c', 'eval', 'xargs rm <<<', 'timeout 5 rm']);

  it.each(EVASIONS)('%s: denied by the rule, or not and then with the sandbox it runs without a prompt', (name, form) => {
    const call = { id: '1', name: 'bash', input: { command: form('/var/tmp/outside/decoy.txt') } };
    const base = { call, tool: { readOnly: false }, mode: 'default' as const, rules: denyRm, workspace: '/ws' };
    if (CAUGHT_BY_THE_RULE.has(name)) {
      expect(checkPermission({ ...base, sandbox: true }).behavior).toBe('deny');
      return;
    }
    expect(checkPermission(base).behavior).toBe('ask');
    expect(checkPermission({ ...base, sandbox: true })).toMatchObject({ behavior: 'allow', decidedBy: expect.stringMatching(/^sandbox:/) });
  });

  it.skipIf(!BWRAP).each(EVASIONS)(
    '%s: inside the sandbox it fails outside the workspace (decoy untouched) and works inside it',
    async (_name, form) => {
      const l = layout();
      const sandbox = sandboxFor(l);
      const outside = await bash(l, form(l.decoy), { sandbox });
      expect(state(l.decoy)).toBe(DECOY_TEXT);
      expect(existsSync(`${l.decoy}.gone`)).toBe(false);
      expect(outside.isError).toBe(true);

      // The same form on a workspace file does its damage there: the decoy survived the sandbox, not a typo.
      const victim = path.join(l.ws, 'victim.txt');
      const inside = await bash(l, form(victim), { sandbox });
      expect(state(victim), inside.content).not.toBe('workspace file\n');
    },
  );
});
