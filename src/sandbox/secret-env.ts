/**
 * Which environment variables stay outside the sandbox: the agent's own credentials, and anything
 * whose name or value says it is a secret. The name is read word by word (split at `_`), so
 * `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `NPM_CONFIG__AUTH` and `OPENAI_API_KEY` go, while
 * `GIT_AUTHOR_NAME` (AUTH inside a word) stays. Agent sockets (ssh-agent, gpg-agent, the session
 * bus) go too: through them a command could use keys or start programs outside the sandbox.
 */

const SECRET_WORDS = new Set([
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWD',
  'PASSPHRASE',
  'CREDENTIAL',
  'CREDENTIALS',
  'APIKEY',
  'KEY',
  'KEYS',
  'AUTH',
  'COOKIE',
  'PAT',
]);

const SECRET_NAMES = new Set([
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DBUS_SESSION_BUS_ADDRESS',
  'KRB5CCNAME',
]);

/** A URL with a password in it (`postgres://user:pass@host/db`). */
const URL_WITH_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;

/**
 * Whether a variable is kept out of the sandbox.
 * @example isSecretEnv('GITHUB_TOKEN', 'ghp_...') // true
 * @example isSecretEnv('GIT_AUTHOR_NAME', 'Ada') // false
 */
export function isSecretEnv(name: string, value: string | undefined): boolean {
  const upper = name.toUpperCase();
  if (SECRET_NAMES.has(upper)) return true;
  if (upper.split('_').some((word) => SECRET_WORDS.has(word))) return true;
  return value !== undefined && URL_WITH_PASSWORD.test(value);
}

/** `env` without its secrets, and the names taken out (for the sandbox's description). */
export function withoutSecretEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isSecretEnv(name, value)) kept[name] = value;
  return kept;
}
