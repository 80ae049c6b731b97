import type { TaskLimits } from '../engine/limits.js';
import { parseDuration, parsePositiveInt } from '../run/parse-options.js';
import { createApiModel } from '../run/model-factory.js';
import { AGENT_MODEL_ALIASES } from '../run/agent-models.js';
import { registerCommand, type CommandContext } from './commands.js';
import type { TuiController } from './controller.js';
import { priceView } from './session-totals.js';

/**
 * /config (and /limits): the session's limits and model, shown and changed for the rest of the
 * session. Interactive limits start unset (Infinity) unless a flag gave them; `off` unsets one.
 */

const KEYS: Record<string, keyof TaskLimits> = {
  turns: 'maxTurns',
  'max-turns': 'maxTurns',
  tools: 'maxToolCalls',
  'tool-calls': 'maxToolCalls',
  'max-tool-calls': 'maxToolCalls',
  timeout: 'timeoutMs',
};

const shown = (value: number, unit = '') => (Number.isFinite(value) ? `${value}${unit}` : 'no limit');

export function describeConfig(controller: TuiController): string {
  const { limits, modelLabel } = controller.config;
  return [
    `Model: ${modelLabel}`,
    `Limits per task: turns ${shown(limits.maxTurns)} · tool calls ${shown(limits.maxToolCalls)} · timeout ${shown(limits.timeoutMs / 1000, 's')} (time waiting for your answer never counts)`,
    'Change for this session: /config turns 30 · /config tools 100 · /config timeout 5m · /config model <id> · `off` removes a limit',
  ].join('\n');
}

/** Parses `<value>` for a limit: a number (a duration for the timeout), or off/none for no limit. */
function limitValue(key: keyof TaskLimits, text: string): number {
  if (/^(off|none|unlimited)$/i.test(text)) return Number.POSITIVE_INFINITY;
  return key === 'timeoutMs' ? parseDuration(text) : parsePositiveInt(text, key === 'maxTurns' ? 'turns' : 'tool calls');
}

/** Switches the model of the next tasks (a scripted model stays). Returns what to print. */
export function switchModel(controller: TuiController, modelId: string): { text: string; tone?: 'error' } {
  const { config } = controller;
  if (config.modelLabel !== config.modelId) return { text: 'A scripted model (--model-script) cannot be switched.', tone: 'error' };
  const id = AGENT_MODEL_ALIASES[modelId] ?? modelId;
  // Made with the environment as it was at setup: the key is withheld from process.env once a run starts.
  const model = config.modelFor ? config.modelFor(id) : createApiModel({ modelId: id, env: process.env });
  controller.updateConfig({ model, modelId: id, modelLabel: id });
  controller.store.update({ modelId: id, price: priceView(controller.config) });
  return { text: `Model: ${id} from the next task on.` };
}

function runConfig({ controller, print }: CommandContext, args: string): void {
  const [name = '', value = ''] = args.split(/\s+/, 2);
  if (!args) {
    print(describeConfig(controller));
  } else if (name === 'model') {
    const { text, tone } = value ? switchModel(controller, value) : { text: `Model: ${controller.config.modelLabel}` };
    print(text, tone);
  } else {
    const key = KEYS[name.toLowerCase()];
    if (!key || !value) {
      print(`Usage: /config [turns|tools|timeout <n|duration|off>] [model <id>]\n${describeConfig(controller)}`, 'error');
      return;
    }
    controller.updateConfig({ limits: { ...controller.config.limits, [key]: limitValue(key, value) } });
    print(describeConfig(controller).split('\n').slice(0, 2).join('\n'));
  }
}

export function registerConfigCommands(): void {
  for (const name of ['config', 'limits']) {
    registerCommand({
      name,
      args: '[turns|tools|timeout|model <value>]',
      description: 'show or change the limits and the model for the rest of the session',
      whileRunning: true,
      run: runConfig,
    });
  }
}
