import { UsageError } from '../errors/xagent-error.js';
import type { TaskSpec } from './task-spec.js';

/**
 * What a task spec may turn on only where the worker's operator said so (`xagent serve --restate
 * --accept-from-spec trust,bypassPermissions,rules`): whoever can reach the ingress writes the
 * spec, so by default it cannot widen what the worker's own settings allow.
 * - `trust`: the workspace's project files (hooks, MCP servers, allow rules) apply;
 * - `bypassPermissions`: the permission mode that asks nothing;
 * - `rules`: allow rules given in the spec (deny rules are always welcome).
 */
export const SPEC_OPT_INS = ['trust', 'bypassPermissions', 'rules'] as const;
export type SpecOptIn = (typeof SPEC_OPT_INS)[number];

/**
 * The opt-ins of `--accept-from-spec`, comma-separated and repeatable.
 * @example acceptedFromSpec(['trust,rules']) // Set { 'trust', 'rules' }
 * @throws UsageError naming an unknown one
 */
export function acceptedFromSpec(values: readonly string[]): ReadonlySet<SpecOptIn> {
  const names = values
    .flatMap((value) => value.split(','))
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names)
    if (!(SPEC_OPT_INS as readonly string[]).includes(name))
      throw new UsageError(`--accept-from-spec "${name}" is not one of ${SPEC_OPT_INS.join(', ')}`);
  return new Set(names as SpecOptIn[]);
}

/** What the spec turns on, as opt-ins, each with the spec field that does it. */
function asked(spec: TaskSpec): Array<{ optIn: SpecOptIn; field: string }> {
  return [
    ...(spec.trust ? [{ optIn: 'trust' as const, field: 'trust: true' }] : []),
    ...(spec.permissionMode === 'bypassPermissions'
      ? [{ optIn: 'bypassPermissions' as const, field: 'permissionMode: bypassPermissions' }]
      : []),
    ...(spec.allow.length > 0 ? [{ optIn: 'rules' as const, field: `allow rules (${spec.allow.join(', ')})` }] : []),
  ];
}

/**
 * Why this worker refuses the task, naming the opt-in it would need; undefined when it may run.
 * @example specRefusal({ ...spec, trust: true }, new Set()) // 'the task spec asks for trust: true; this worker ... --accept-from-spec trust'
 */
export function specRefusal(spec: TaskSpec, accepted: ReadonlySet<SpecOptIn>): string | undefined {
  const missing = asked(spec).filter(({ optIn }) => !accepted.has(optIn));
  if (missing.length === 0) return undefined;
  return (
    `the task spec asks for ${missing.map(({ field }) => field).join(' and ')}; this worker takes that from a spec only when ` +
    `started with --accept-from-spec ${missing.map(({ optIn }) => optIn).join(',')}`
  );
}
