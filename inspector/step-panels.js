// The panels added for reading a run: the conversation at the step, the timing of each round, the
// task boundaries on the scrubber, and a header that tells live from replay and running from finished.

import { buildConversation, renderConversation, startsTask } from './conversation.js';
import { renderTiming, roundTimings } from './timing.js';
import { agentLanes, renderLanes } from './lanes.js';
import { rewindText } from './panels.js';
import { hasTag } from './tags.js';

const $ = (id) => document.getElementById(id);
/** The state in which the run waits for the person's answer to a permission dialog. */

/** A call in a few words: `bash npm test`, `read_file notes.txt`, else its name and input. */
export function callText(call) {
  if (!call) return 'a tool call';
  const input = call.input ?? {};
  const main = ['command', 'path', 'file_path', 'pattern', 'url', 'description'].map((k) => input[k]).find((v) => typeof v === 'string');
  const text = `${call.name} ${main ?? JSON.stringify(input)}`;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
let shownEnd = '';
let lanesEnd = -1;
let marksFor = '';
let runningCall = null;

/** The index of the record that starts the task shown at `end` (records before `end`). */
export function taskStartIndex(records, end) {
  for (let j = end - 1; j >= 0; j--) if (startsTask(records[j]) || records[j].kind === 'meta') return j;
  return 0;
}

/** Rewinds on the scrubber: each at the first step after it (the timeline keeps what came before). */
function rewindMarks(allRecords, steps, span) {
  return allRecords
    .filter((r) => r.kind === 'rewind')
    .map((r) => {
      const k = steps.findIndex((i) => i > r.i);
      const mark = document.createElement('span');
      mark.className = 'task-mark rewind-mark';
      mark.setAttribute('data-testid', 'rewind-mark');
      mark.dataset.step = String(k === -1 ? steps.length - 1 : k);
      mark.style.left = `${(100 * (k === -1 ? steps.length - 1 : k)) / span}%`;
      mark.textContent = `↶ ${r.to}`;
      mark.title = rewindText(r);
      return mark;
    });
}

/** The command that forks the session before the user message of the step shown (the page only shows it). */
function renderForkCommand(records) {
  let state = records.length - 1;
  while (state >= 0 && records[state].kind !== 'state') state--;
  let prompt = null;
  for (let j = state; j >= 0 && !prompt; j--) if (records[j].kind === 'prompt') prompt = records[j];
  const box = $('fork-here');
  box.hidden = prompt === null;
  if (!prompt) return;
  if (prompt.fork_command) {
    const code = document.createElement('code');
    code.textContent = prompt.fork_command;
    box.replaceChildren(`Fork before message ${prompt.n}, to send it again or differently: `, code);
  } else box.textContent = `Fork: ${prompt.why_not}`;
}

/** Task boundaries under the scrubber: one mark per task start, placed at its step; rewinds too. */
function renderTaskMarks(allRecords, steps) {
  const starts = steps.map((i, k) => ({ k, r: allRecords[i] })).filter(({ r }) => startsTask(r));
  const rewinds = allRecords.filter((r) => r.kind === 'rewind').length;
  const key = `${steps.length}:${starts.map((s) => s.k).join(',')}:${rewinds}`;
  if (key === marksFor) return;
  marksFor = key;
  const span = Math.max(1, steps.length - 1);
  $('task-marks').replaceChildren(
    ...rewindMarks(allRecords, steps, span),
    ...(starts.length > 1 ? starts : []).map(({ k }, n) => {
      const mark = document.createElement('span');
      mark.className = 'task-mark';
      mark.setAttribute('data-testid', 'task-mark');
      mark.dataset.step = String(k);
      mark.style.left = `${(100 * k) / span}%`;
      mark.textContent = `task ${n + 1}`;
      mark.title = `task ${n + 1} starts at step ${k + 1}`;
      return mark;
    }),
  );
}

/** Every agent's records of the main agent's task shown at `end` (index into `allRecords`), for the lanes. */
function taskOfEveryAgent(allRecords, end) {
  const upTo = allRecords.slice(0, end);
  const main = upTo.filter((r) => r.kind === 'meta' || (r.agent ?? 'main') === 'main');
  const from = main[taskStartIndex(main, main.length)]?.i ?? 0;
  return upTo.filter((r) => r.i >= from);
}

/**
 * Draws the step panels. `records` are the shown agent's records up to the step shown, `end` where
 * that step ends in `allRecords` (the whole history); `exported` says the page is a report file,
 * `live` that the step shown is a live run's now.
 */
export function renderStepPanels({ records, allRecords, end: runEnd, steps, follow, exported, live }) {
  const end = records.length;
  // The state shown lasts until the next one was entered, or, while a live run rests in it, until now.
  const next = allRecords[(records.at(-1)?.i ?? -1) + 1];
  const until = live ? Date.now() : Date.parse((next ?? records.at(-1))?.ts ?? '');
  // The records shown: how many, and whose last (another agent's view has other records).
  const shown = `${end}:${records.at(-1)?.i ?? -1}`;
  if (shown !== shownEnd || live) {
    renderTiming($('timing'), roundTimings(records.slice(taskStartIndex(records, end)), until));
  }
  // The lanes are every agent's up to the step shown, whichever agent is looked at.
  if (runEnd !== lanesEnd || live) {
    lanesEnd = runEnd;
    const laneUntil = live ? Date.now() : Date.parse((allRecords[runEnd] ?? allRecords[runEnd - 1])?.ts ?? '');
    renderLanes($('timing-lanes'), agentLanes(taskOfEveryAgent(allRecords, runEnd), laneUntil));
  }
  if (shown !== shownEnd) {
    shownEnd = shown;
    renderConversation($('conversation'), buildConversation(records));
  }
  renderTaskMarks(allRecords, steps);
  renderForkCommand(records);

  // Whether the run has ended is a fact about the run (its main agent), not about the step or the agent being looked at.
  const run = allRecords.filter((r) => r.kind === 'meta' || (r.agent ?? 'main') === 'main');
  const meta = run.findLast((r) => r.kind === 'meta');
  if (meta) {
    const source = exported ? 'replay' : meta.mode;
    $('source').textContent = exported ? 'replay (exported file)' : meta.mode === 'replay' ? 'replay' : 'live';
    $('source').dataset.source = source;
    const lastTask = taskStartIndex(run, run.length);
    const ended = run.slice(lastTask).some((r) => r.kind === 'result' || hasTag(r, 'final'));
    $('mode').textContent = ended ? 'finished' : source === 'live' ? 'running' : 'incomplete';
    $('mode').dataset.mode = $('mode').textContent;
    // Like the mode, a fact about the run now: a live run resting in the dialog waits for a person.
    // Any agent's: a subagent waiting for the person's answer is the run waiting for it.
    const now = allRecords.findLast((r) => r.kind === 'state');
    const waiting = !ended && source === 'live' && hasTag(now, 'person');
    $('waiting').hidden = !waiting;
    $('waiting').textContent = waiting ? `waiting for your answer: ${callText(now.call)}` : '';
  }

  // Following a live run, the tool list scrolls to the card of the tool that is running, once per
  // call; the page itself does not jump.
  const running = follow ? document.querySelector('#tools [data-status="running"]') : null;
  const id = running?.dataset.callId ?? null;
  if (running && id !== runningCall) {
    const list = $('tools');
    list.scrollTop += running.getBoundingClientRect().top - list.getBoundingClientRect().top - 8;
  }
  runningCall = id;
}
