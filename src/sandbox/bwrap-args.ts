import type { Mount } from './mount-plan.js';

export interface BwrapArgsInput {
  mounts: readonly Mount[];
  network: boolean;
  /** Where the command starts, inside the sandbox. */
  cwd: string;
  command: string;
  args: readonly string[];
}

/**
 * bwrap's argument list for one process: every namespace new (network kept only when allowed),
 * no capabilities and no nested user namespaces (so no mount can be undone from inside, even as
 * root), the whole file system read-only with a fresh /dev, /proc and /tmp, then `mounts` in order.
 * Pure: the same input always gives the same list.
 * @example bwrapArgs({ mounts: [{ type: 'bind', path: '/ws' }], network: false, cwd: '/ws', command: 'bash', args: ['-c', 'ls'] })
 * // ['--die-with-parent', '--unshare-all', '--unshare-user', ..., '--bind', '/ws', '/ws', '--chdir', '/ws', '--', 'bash', '-c', 'ls']
 */
export function bwrapArgs({ mounts, network, cwd, command, args }: BwrapArgsInput): string[] {
  const argv = [
    // The sandbox's init dies with bwrap, and with it every process of the PID namespace.
    '--die-with-parent',
    '--unshare-all',
    ...(network ? ['--share-net'] : []),
    '--unshare-user',
    '--disable-userns',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  for (const mount of mounts) argv.push(...mountArgs(mount));
  argv.push('--chdir', cwd, '--', command, ...args);
  return argv;
}

function mountArgs(mount: Mount): string[] {
  switch (mount.type) {
    case 'bind':
      return ['--bind', mount.path, mount.path];
    case 'ro-bind':
      return ['--ro-bind', mount.path, mount.path];
    case 'hide-dir':
      return ['--tmpfs', mount.path, '--remount-ro', mount.path];
    case 'hide-file':
      return ['--ro-bind', '/dev/null', mount.path];
    default: {
      const unreachable: never = mount;
      return unreachable;
    }
  }
}
