// The conversation as the model saw it at a step, rebuilt from the records up to that step: the
// prompt, each model turn's text in one block (however many deltas it streamed in), its tool
// calls, the results that went back, thinking and compaction marks when the feed carries them.

import { hasTag } from './tags.js';

const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

/** Whether a state record starts a task: its first step (seq 0, or entered by xstate.init). */
export const startsTask = (r) => r.kind === 'state' && (r.seq === 0 || r.via?.event === 'xstate.init');

/**
 * Messages (`{role, blocks}`) and marks (`{mark: 'task' | 'compaction', ...}`) from `records`.
 * A new assistant message begins at each model call; results gather in one user message.
 */
export function buildConversation(records) {
  const items = [];
  let current = null;
  let task = 0;
  // Set when a model call starts: its text and calls are a new assistant message.
  let newTurn = false;
  const open = (role) => {
    if (role === 'assistant' && newTurn) current = null;
    if (role === 'assistant') newTurn = false;
    if (current?.role !== role) {
      current = { role, blocks: [] };
      items.push(current);
    }
    return current;
  };
  const lastAssistant = () => [...items].reverse().find((m) => m.role === 'assistant');
  const hasCall = (id) => items.some((m) => m.blocks?.some((b) => b.type === 'tool_use' && b.id === id));
  const hasResult = (id) => items.some((m) => m.blocks?.some((b) => b.type === 'tool_result' && b.id === id));
  let prompt = null;
  // The user message number of the task about to start (replay), so a rewind knows where to cut.
  let message = null;
  for (const r of records) {
    if (r.kind === 'meta') prompt = r.prompt ?? null;
    // A subagent's view begins with its own prompt, not the run's.
    if (r.kind === 'agent_prompt') prompt = r.text;
    if (r.kind === 'prompt') {
      prompt = r.text;
      message = r.n;
    } else if (r.kind === 'rewind' && r.conversation) {
      // The model sees the conversation without message `to` and what followed; the cut part leaves the panel.
      const at = items.findLastIndex((item) => item.mark === 'task' && item.message === r.to);
      if (at !== -1) items.splice(at);
      items.push({ mark: 'rewind', text: `rewound to message ${r.to}: the conversation went back to the moment it was sent` });
      current = null;
    } else if (r.kind === 'fork') {
      items.push({
        mark: 'rewind',
        text: `forked from session ${r.from_session}${r.at === null ? '' : ` before message ${r.at}`} (${r.messages} messages)`,
      });
    }
    if (startsTask(r)) {
      task++;
      items.push({ mark: 'task', task, message });
      message = null;
      current = null;
      if (prompt) open('user').blocks.push({ type: 'text', text: prompt });
      prompt = null;
    } else if (hasTag(r, 'model')) {
      newTurn = true;
    } else if (r.kind === 'text') {
      const message = open('assistant');
      const last = message.blocks.at(-1);
      if (last?.type === 'text') last.text += r.text;
      else message.blocks.push({ type: 'text', text: r.text });
    } else if (r.kind === 'thinking') {
      open('assistant').blocks.push({ type: 'thinking', text: r.text ?? '' });
    } else if (r.kind === 'compact' || (r.kind === 'state' && /compact/i.test(r.via?.event ?? ''))) {
      items.push({ mark: 'compaction', text: r.message ?? 'the conversation was compacted into a summary' });
      current = null;
    } else if (hasTag(r, 'call') && r.call && !hasCall(r.call.id)) {
      // Calls of one response are validated one by one, between the results of the earlier ones.
      const message = !newTurn && current?.role !== 'assistant' ? (lastAssistant() ?? open('assistant')) : open('assistant');
      message.blocks.push({ type: 'tool_use', id: r.call.id, name: r.call.name, input: r.call.input });
    } else if (r.kind === 'tool_result' && !hasResult(r.call.id)) {
      open('user').blocks.push({
        type: 'tool_result',
        id: r.call.id,
        name: r.call.name,
        content: r.result.content,
        isError: r.result.is_error,
      });
    } else if (hasTag(r, 'call_failed') && r.call && r.error && !hasResult(r.call.id)) {
      open('user').blocks.push({
        type: 'tool_result',
        id: r.call.id,
        name: r.call.name,
        content: `${r.error.code}: ${r.error.message}`,
        isError: true,
      });
    }
  }
  return items;
}

function blockNode(block) {
  const node = el('div', `block block-${block.type}${block.isError ? ' error' : ''}`);
  node.dataset.type = block.type;
  if (block.type === 'text') node.textContent = block.text;
  else if (block.type === 'thinking') node.textContent = `thinking: ${block.text}`;
  else if (block.type === 'tool_use') {
    node.append(el('strong', '', `${block.name}`), el('span', 'dim', ` ${block.id}`), el('pre', '', JSON.stringify(block.input, null, 2)));
  } else if (block.type === 'tool_result') {
    node.append(
      el('span', 'dim', `result for ${block.name} ${block.id}${block.isError ? ' (is_error)' : ''}`),
      el('pre', '', block.content),
    );
  }
  return node;
}

/** Draws the conversation; returns how many messages it shows. */
export function renderConversation(list, items) {
  list.replaceChildren(
    ...items.map((item) => {
      const li = el('li');
      if (item.mark === 'task') {
        li.className = 'task-boundary';
        li.textContent = `task ${item.task}`;
        li.dataset.testid = 'conversation-task';
      } else if (item.mark === 'rewind') {
        li.className = 'compaction rewind';
        li.dataset.testid = 'conversation-rewind';
        li.textContent = item.text;
      } else if (item.mark === 'compaction') {
        li.className = 'compaction';
        li.textContent = `compacted: ${item.text}`;
      } else {
        li.className = `msg role-${item.role}`;
        li.setAttribute('data-testid', 'message');
        li.dataset.role = item.role;
        li.append(el('div', 'role', item.role), ...item.blocks.map(blockNode));
      }
      return li;
    }),
  );
  list.scrollTop = list.scrollHeight;
  return items.filter((i) => !i.mark).length;
}
