import { startRunInspector } from '../run/run-inspector.js';
import type { PreparedRun } from '../run/prepare-run.js';
import { formatTokens } from '../terminal/spinner.js';
import { loadSettings } from '../settings/settings.js';
import { parseRules } from '../permissions/rules.js';
import { PERMISSION_MODES } from '../permissions/types.js';
import type { TuiController } from './controller.js';
import { showResumed } from './resumed-exchanges.js';
import { visible } from '../terminal/visible.js';
import { askChoice } from './ask-choice.js';
import { recentSessions, whenAgo } from './session-picker.js';
import { listCommands, registerCommand, type CommandContext } from './commands.js';
import { switchModel } from './config-command.js';
import { twoColumns } from '../terminal/two-columns.js';

/** What the built-ins need beyond the controller: opening another session of this workspace. */
export interface BuiltinDeps {
  /** A run in a new session (no id) or in the one `resume` names; its warnings go to `stderr`. */
  openRun(resume: string | undefined, stderr: NodeJS.WritableStream): Promise<PreparedRun>;
}

/** A stream whose lines become transcript notes (warnings of a session opened from the UI). */
function notes(print: (text: string, tone?: 'warn') => void): NodeJS.WritableStream {
  const write = (text: string) => {
    if (text.trim()) print(text.trim(), 'warn');
    return true;
  };
  return { write } as unknown as NodeJS.WritableStream;
}

const short = (id: string) => id.slice(0, 8);

/** Where a rule added by /permissions says it comes from. */
const SESSION_SOURCE = '/permissions (this session)';
const PERMISSIONS_USAGE =
  'Usage: /permissions · /permissions allow|ask|deny <rule> · /permissions remove <rule> · /permissions mode default|acceptEdits|plan|dontAsk|bypassPermissions';

/** The mode with where it came from, and every rule in force with its file or flag. */
function describePermissions(controller: TuiController): string {
  const { config } = controller;
  const mode = controller.policy.mode;
  let settings: { mode?: string; modeSource?: string } = {};
  try {
    settings = loadSettings({ workspace: config.workspace, home: config.home });
  } catch {
    // The settings were read once at start-up; a file broken since then changes nothing here.
  }
  let modeSource = 'default';
  if (controller.modeChangedInSession) modeSource = 'this session: Shift-Tab or /permissions mode';
  else if (settings.mode === mode && settings.modeSource) modeSource = settings.modeSource;
  else if (settings.mode !== undefined || mode !== 'default') modeSource = '--permission-mode';
  const rules = controller.policy.rules();
  const order = { deny: 0, ask: 1, allow: 2 } as const;
  const lines = [...rules]
    .sort((a, b) => order[a.behavior] - order[b.behavior])
    .map((rule) => `  ${rule.behavior.padEnd(5)}  ${rule.text.padEnd(28)}  ${rule.source}`);
  return [
    `Permission mode: ${mode} (from ${modeSource})`,
    rules.length ? 'Rules (deny beats ask beats allow):' : 'No rules: read-only tools run, the others ask.',
    ...lines,
    'Change for this session: /permissions allow|ask|deny <rule> · /permissions remove <rule> · /permissions mode <mode> · Shift-Tab cycles modes',
  ].join('\n');
}

/** The keys /help lists, after the commands. */
const HELP_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['Enter', 'sends; \\ then Enter, Shift-Enter or Alt-Enter adds a line'],
  ['↑/↓', 'walk the history'],
  ['Tab', 'completes a command'],
  ['Ctrl-A, Ctrl-E', 'the start and the end of the line (also Home, End)'],
  ['Ctrl-U, Ctrl-W', 'delete to the start of the line, delete a word'],
  ['Shift-Tab', 'cycles the permission mode: default, acceptEdits, plan'],
  ['Ctrl-O', "shows the last tool's whole output"],
  ['Esc, Ctrl-C', 'stop the running task; Esc twice on an empty prompt rewinds'],
  ['Ctrl-D', 'leaves (so does Ctrl-C twice); xagent --resume continues the session'],
];

/** Sessions /resume offers to pick from, newest first. */
const RESUME_CHOICES = 10;

/** /resume without an id: another session of this workspace, picked in the choice dialog, or null. */
async function pickOther(controller: TuiController, print: CommandContext['print']): Promise<string | null> {
  const { home, workspace } = controller.config;
  const sessions = recentSessions(home, workspace)
    .filter((s) => s.id !== controller.session.sessionId)
    .slice(0, RESUME_CHOICES);
  if (sessions.length === 0) {
    print('No other recorded session in this workspace.', 'dim');
    return null;
  }
  const now = Date.now();
  const index = await askChoice(controller.store, {
    title: ['Resume which session of this workspace? (newest first)'],
    options: sessions.map(
      (s) => `${whenAgo(s.updated, now)} · ${s.messages} messages · ${visible(s.firstPrompt.replace(/\s+/g, ' ').slice(0, 60))}`,
    ),
  });
  const picked = index === null ? undefined : sessions[index];
  if (!picked) print('Not resumed.', 'dim');
  return picked?.id ?? null;
}

export function registerBuiltinCommands(deps: BuiltinDeps): void {
  registerCommand({
    name: 'help',
    description: 'list the commands and keys',
    whileRunning: true,
    run: ({ print, width }) => {
      const columns = width?.() ?? 80;
      const commands = listCommands().map((c): [string, string] => [`/${c.name}${c.args ? ` ${c.args}` : ''}`, c.description]);
      print(['Commands:', ...twoColumns(commands, columns), 'Keys:', ...twoColumns(HELP_KEYS, columns)].join('\n'));
    },
  });

  registerCommand({
    name: 'clear',
    description: 'clear the screen and start a new session (the current one stays recorded)',
    run: async ({ controller, print, clearScreen }) => {
      const previous = controller.session.sessionId;
      await controller.switchRun(await deps.openRun(undefined, notes(print)));
      clearScreen?.();
      print(`New session ${controller.session.sessionId}. The previous one: xagent --resume ${previous}`, 'dim');
    },
  });

  registerCommand({
    name: 'resume',
    args: '[session-id]',
    description: 'continue a recorded session of this workspace (without an id: pick one)',
    run: async ({ controller, print }, args) => {
      const id = args || (await pickOther(controller, print));
      if (!id) return;
      const run = await deps.openRun(id, notes(print));
      await controller.switchRun(run);
      // The Resumed line came with the run's opening (as a note); the last exchanges follow.
      await showResumed(controller.store, run.session.messages);
    },
  });

  registerCommand({
    name: 'model',
    args: '[model-id]',
    description: 'show or change the model for the next tasks',
    // A task reads the model when it starts: switching while one runs changes the next, as /config model does.
    whileRunning: true,
    run: ({ controller, print }, args) => {
      if (!args) return print(`Model: ${controller.config.modelLabel}`);
      const { text, tone } = switchModel(controller, args);
      print(text, tone);
    },
  });

  registerCommand({
    name: 'permissions',
    args: '[allow|ask|deny <rule> | remove <rule> | mode <mode>]',
    description: 'the mode and the rules in force with where each comes from; add or remove a rule, change the mode',
    whileRunning: true,
    run: ({ controller, print }, args) => {
      const [verb = '', ...rest] = args.split(/\s+/);
      const value = rest.join(' ').trim();
      if (verb && !value) return print(PERMISSIONS_USAGE, 'error');
      if (verb === 'allow' || verb === 'ask' || verb === 'deny') {
        controller.policy.addRules(parseRules([value], verb, SESSION_SOURCE, controller.config.workspace));
        return print(`Added ${verb} ${value} for this session (to keep it, add it to .xagent/settings.json).`);
      }
      if (verb === 'remove') {
        const removed = (['deny', 'ask', 'allow'] as const).filter((behavior) => controller.policy.removeRule(behavior, value));
        if (removed.length === 0) return print(`No rule ${value} in force; /permissions lists them.`, 'error');
        return print(`Removed ${removed.join(' and ')} ${value} for this session (its settings file is unchanged).`);
      }
      if (verb === 'mode') {
        const mode = PERMISSION_MODES.find((m) => m.toLowerCase() === value.toLowerCase());
        if (!mode) return print(`Unknown mode ${value}: ${PERMISSION_MODES.join(', ')}`, 'error');
        controller.setMode(mode);
        return print(`Permission mode: ${mode} for this session.`);
      }
      if (verb) return print(PERMISSIONS_USAGE, 'error');
      print(describePermissions(controller));
    },
  });

  registerCommand({
    name: 'inspect',
    description: 'start the live inspector on this session and print its URL',
    whileRunning: true,
    run: async ({ controller, print }) => {
      const { config, session } = controller;
      let url = '';
      const write = (text: string) => {
        url += text;
        return true;
      };
      const capture = { write } as unknown as NodeJS.WritableStream;
      const inspector = await startRunInspector({ config, sessionId: session.sessionId, port: 0, stderr: capture });
      controller.inspectors.push(inspector);
      controller.onExit(() => inspector.server.close());
      print(`${url.trim()} · shows the tasks from now on`);
    },
  });

  registerCommand({
    name: 'cost',
    description: 'tokens used in this session, and the cost when the price is known',
    whileRunning: true,
    run: ({ controller, print }) => {
      const { usage, costUsd, price } = controller.store.get();
      const cache = `cache: ${formatTokens(usage.cache_creation_input_tokens ?? 0)} written · ${formatTokens(usage.cache_read_input_tokens ?? 0)} read`;
      const cost = costUsd === null ? 'cost unknown' : `$${costUsd.toFixed(4)}`;
      print(
        [
          `Session ${short(controller.session.sessionId)}: ↑ ${formatTokens(usage.input_tokens)} input · ↓ ${formatTokens(usage.output_tokens)} output tokens · ${cache} · ${cost}`,
          `Price of ${controller.config.modelLabel}: ${price.text}`,
        ].join('\n'),
      );
    },
  });

  registerCommand({
    name: 'exit',
    description: 'leave (the session stays recorded; xagent --resume continues it)',
    whileRunning: true,
    run: ({ exit }: CommandContext) => exit(),
  });
}
