import { UsageError } from '../errors/xagent-error.js';

/**
 * The `sandbox` key of the settings files, and how the files and the `--sandbox` flag combine.
 *
 * ```json
 * { "sandbox": { "enabled": true, "network": false, "hide": ["~/.config/gh"], "hooks": true, "mcpServers": true } }
 * ```
 *
 * Combining is one-way where it matters: any file can switch the sandbox on or hide more, but only
 * a trusted file (the user's own settings, not a project's shared `.xagent/settings.json`) can open
 * the network or take hooks and MCP servers out of the sandbox. A cloned repository must not be
 * able to widen the boundary its user chose.
 */

/** What a run uses once every source is combined. */
export interface SandboxSettings {
  enabled: boolean;
  /** Network access from inside; off unless a trusted settings file allows it. */
  network: boolean;
  /** Extra files or folders made invisible inside (absolute, or `~/...` for the home folder). */
  hide: string[];
  /** Whether hooks run inside the sandbox when it is on (for the hooks runner). */
  hooks: boolean;
  /** Whether stdio MCP servers run inside the sandbox when it is on (for the MCP client). */
  mcpServers: boolean;
}

/** One file's `sandbox` key, as written. */
export interface SandboxLayer {
  source: string;
  /** The user's settings (or a personal, git-ignored file); false for a project's shared file. */
  trusted: boolean;
  enabled?: boolean;
  network?: boolean;
  hide?: string[];
  hooks?: boolean;
  mcpServers?: boolean;
}

/** A `sandbox` value that cannot be used; the settings loader names the file. */
export class SandboxSettingsError extends UsageError {
  override readonly name = 'SandboxSettingsError';
  override readonly fault = 'config';
  readonly code = 'SANDBOX_SETTINGS_INVALID';
}

const BOOLEAN_KEYS = ['enabled', 'network', 'hooks', 'mcpServers'] as const;
const KEYS: readonly string[] = [...BOOLEAN_KEYS, 'hide'];
/** Keys whose non-default value widens the boundary, so only a trusted file may set it. */
const WIDENING: Partial<Record<(typeof BOOLEAN_KEYS)[number], boolean>> = { network: true, hooks: false, mcpServers: false };

/**
 * Checks one file's `sandbox` value.
 * @example parseSandboxLayer({ enabled: true }, '/ws/.xagent/settings.json', false) // { source, trusted: false, enabled: true }
 * @throws SandboxSettingsError saying which key is wrong and why
 */
export function parseSandboxLayer(value: unknown, source: string, trusted: boolean): SandboxLayer {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxSettingsError(`"sandbox" must be an object such as {"enabled": true, "network": false}`);
  }
  const data = value as Record<string, unknown>;
  for (const key of Object.keys(data)) {
    if (!KEYS.includes(key)) throw new SandboxSettingsError(`unknown key "sandbox.${key}" (expected ${KEYS.join(', ')})`);
  }
  const layer: SandboxLayer = { source, trusted };
  for (const key of BOOLEAN_KEYS) {
    const flag = data[key];
    if (flag === undefined) continue;
    if (typeof flag !== 'boolean') throw new SandboxSettingsError(`"sandbox.${key}" must be true or false, got ${JSON.stringify(flag)}`);
    if (!trusted && WIDENING[key] === flag) {
      throw new SandboxSettingsError(`"sandbox.${key}": ${flag} widens the sandbox, so it is only accepted from the user settings`);
    }
    layer[key] = flag;
  }
  if (data.hide !== undefined) {
    if (!Array.isArray(data.hide) || !data.hide.every((item): item is string => typeof item === 'string' && item !== '')) {
      throw new SandboxSettingsError('"sandbox.hide" must be a list of paths (absolute, or starting with ~/)');
    }
    for (const item of data.hide) {
      if (!item.startsWith('/') && !item.startsWith('~/'))
        throw new SandboxSettingsError(`"sandbox.hide": ${JSON.stringify(item)} is neither absolute nor ~/...`);
    }
    layer.hide = [...data.hide];
  }
  return layer;
}

/**
 * Combines the layers (most specific file first) and the flag (`--sandbox` true, `--no-sandbox`
 * false, absent undefined). The flag decides `enabled`; without it, any file that enables the
 * sandbox turns it on. Other switches come from the most specific file that sets them; `hide` lists
 * add up.
 * @example resolveSandboxSettings([{ source: 'user', trusted: true, network: true }], true) // { enabled: true, network: true, ... }
 */
export function resolveSandboxSettings(layers: readonly SandboxLayer[], flag: boolean | undefined): SandboxSettings {
  const first = <K extends (typeof BOOLEAN_KEYS)[number]>(key: K) => layers.find((layer) => layer[key] !== undefined)?.[key];
  return {
    enabled: flag ?? layers.some((layer) => layer.enabled === true),
    network: first('network') ?? false,
    hide: [...new Set(layers.flatMap((layer) => layer.hide ?? []))],
    hooks: first('hooks') ?? true,
    mcpServers: first('mcpServers') ?? true,
  };
}
