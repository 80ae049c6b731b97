import { mergeEnvLayers, type EnvLayer } from '../settings/settings.js';
import { AGENT_CREDENTIALS, PASS_CREDENTIALS_ENV } from './agent-credentials.js';
import { CALL_TAG, RUN_TAG } from '../system/process-group.js';

/**
 * The settings' `env` as a run's commands get it (bash, hooks, stdio MCP servers): every file's
 * variables merged, the most specific file winning, over the inherited environment. The agent's
 * own credentials are withheld here too, as they are from the inherited environment
 * (agent-credentials.ts): a settings file cannot hand the key to a command, unless
 * `XAGENT_PASS_API_KEY=1` is set where xagent starts.
 * @example commandEnv([{ source: '/ws/.claude/settings.json', vars: { NODE_ENV: 'test' } }], process.env) // { NODE_ENV: 'test' }
 */
export function commandEnv(
  layers: readonly EnvLayer[],
  env: NodeJS.ProcessEnv,
  warn: (warning: string) => void = () => undefined,
): Record<string, string> {
  const merged = mergeEnvLayers(layers);
  // The tags that find what a run or a call left running are xagent's to set.
  for (const name of [RUN_TAG, CALL_TAG]) {
    if (!(name in merged)) continue;
    delete merged[name];
    warn(`env.${name} ignored: xagent sets it to stop what a run leaves running`);
  }
  if (env[PASS_CREDENTIALS_ENV] === '1') return merged;
  for (const name of AGENT_CREDENTIALS) {
    if (!(name in merged)) continue;
    delete merged[name];
    const source = layers.find((layer) => Object.hasOwn(layer.vars, name))?.source ?? 'settings';
    warn(
      `${source}: env.${name} is not given to commands, hooks or MCP servers (xagent withholds its credentials; ${PASS_CREDENTIALS_ENV}=1 passes them)`,
    );
  }
  return merged;
}
