import { scrubEnvironBlock } from '../system/scrub-environ.js';

/**
 * The agent's own credentials (the API key it calls the model with) are for xagent, not for what
 * it starts: bash, hooks, MCP servers and git inherit this process's environment, so once the
 * model client has the key, the CLI takes it out of the environment. `XAGENT_PASS_API_KEY=1`
 * keeps it there, for the person who wants their hooks or tools to have it on purpose.
 */
export const AGENT_CREDENTIALS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'] as const;
export const PASS_CREDENTIALS_ENV = 'XAGENT_PASS_API_KEY';

const withheld: string[] = [];

/**
 * Removes the agent's credentials from `env` (the CLI's process.env), remembering their values
 * for the inspector's redaction. Not for the library: a host program's environment is its own.
 * @example withholdAgentCredentials(process.env); spawn('bash', [...]) // no ANTHROPIC_API_KEY
 */
export function withholdAgentCredentials(env: NodeJS.ProcessEnv): void {
  if (env[PASS_CREDENTIALS_ENV] === '1') return;
  for (const name of AGENT_CREDENTIALS) {
    const value = env[name];
    if (value) withheld.push(value);
    delete env[name];
  }
  // unsetenv leaves the bytes in the block /proc/<pid>/environ shows to our children: overwrite them too.
  if (env === process.env) scrubEnvironBlock(AGENT_CREDENTIALS);
}

/** The values withheld so far: still secrets to redact, though no longer in the environment. */
export function withheldCredentials(): readonly string[] {
  return withheld;
}

/**
 * `env` as a project file's `${VAR}` sees it: without the agent's credentials, unless passed on
 * purpose. A cloned repository's `.mcp.json` must not be able to hand the key to its server.
 * @example resolveMcpServers(projectLayers, projectEnv(process.env))
 */
export function projectEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env[PASS_CREDENTIALS_ENV] === '1') return env;
  const copy = { ...env };
  for (const name of AGENT_CREDENTIALS) delete copy[name];
  return copy;
}
