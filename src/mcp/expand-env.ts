/**
 * `${VAR}` and `${VAR:-default}` in MCP server configs, expanded from the environment the way a
 * shell would. What was substituted is remembered, because a value taken from the environment
 * (a token) is as secret as the config's own env and header values.
 */

export interface Expansion {
  text: string;
  /** Values substituted from the environment (not the defaults written in the config). */
  substituted: string[];
  /** Variables referenced without a default that are not set. */
  missing: string[];
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands every `${VAR}` and `${VAR:-default}` in `text`. An unset variable without a default is
 * listed in `missing` and left as written, so the caller can say which one.
 * @example expandEnv('Bearer ${TOKEN}', { TOKEN: 'abc' }) // { text: 'Bearer abc', substituted: ['abc'], missing: [] }
 */
export function expandEnv(text: string, env: NodeJS.ProcessEnv): Expansion {
  const substituted: string[] = [];
  const missing: string[] = [];
  const expanded = text.replace(REFERENCE, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') {
      substituted.push(value);
      return value;
    }
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return whole;
  });
  return { text: expanded, substituted, missing };
}
