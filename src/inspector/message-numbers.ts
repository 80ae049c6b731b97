import { isAnnotation, type EvidenceRecord } from '../sessions/records.js';

/** Each task of a recorded log: its user message's number, and whether a later rewind cut it from the conversation. */
export interface TaskMessage {
  n: number;
  /** The rewind (its `to`) that removed this message from the conversation, if one did. */
  rewoundBy: number | null;
}

/**
 * Numbers the user messages of an evidence log as `xagent rewind --list` numbers the transcript:
 * each task_start is the next message; a fork starts after the messages it kept; a rewind of the
 * conversation to N makes the next one N again and cuts N and later from the conversation.
 * Keyed by the task_start line's index in `lines`.
 * @example messageNumbers(records.lines).get(0) // => { n: 1, rewoundBy: null }
 */
export function messageNumbers(lines: readonly EvidenceRecord[]): Map<number, TaskMessage> {
  const tasks = new Map<number, TaskMessage>();
  let count = 0;
  lines.forEach((line, index) => {
    if (isAnnotation(line, 'fork')) count = line.user_messages ?? 0;
    else if (isAnnotation(line, 'task_start')) tasks.set(index, { n: ++count, rewoundBy: null });
    else if (isAnnotation(line, 'rewind') && line.conversation) {
      for (const task of tasks.values()) if (task.n >= line.to && task.rewoundBy === null) task.rewoundBy = line.to;
      count = line.to - 1;
    }
  });
  return tasks;
}
