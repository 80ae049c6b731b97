import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadTranscript } from '../sessions/transcript.js';
import { BlobStore, checkpointCap } from './blob-store.js';
import { CHECKPOINT_LOG_VERSION, readCheckpointLog, type FileChange } from './checkpoint-log.js';
import { asidePath, rewoundDir } from './files.js';
import { planCode, type CodePlan, type FilePlan } from './plan.js';
import { runJournal, type Journal } from './journal.js';
import { RewindError } from './rewind-error.js';
import { transcriptSize } from './checkpointer.js';
import { userMessages, type UserMessage } from './user-messages.js';
import { conversationOf, transcriptPrefix } from './conversation.js';

export interface RewindRequest {
  sessionDir: string;
  sessionId: string;
  /** The user message to go back to (1 is the first): the session as it was when it was sent. */
  to: number;
  code: boolean;
  conversation: boolean;
  /** The session's workspace (a real path): nothing outside it is written; paths are shown relative to it. */
  workspace?: string | null;
  /**
   * Asked when restoring would overwrite files changed outside xagent; true goes on. Absent (print
   * mode, scripts): the rewind is refused with REWIND_CONFLICT naming the files.
   */
  confirm?: (files: string[]) => Promise<boolean>;
}

export interface RewindOutcome {
  kind: 'done' | 'cancelled';
  message: UserMessage;
  /** Files put back or deleted, as shown. */
  files: Array<{ path: string; action: 'restored' | 'deleted' }>;
  /** Files left as they are, and why. */
  left: Array<{ path: string; why: string }>;
  messagesBefore: number;
  messagesAfter: number;
}

/**
 * Puts a session back to the moment user message `to` was sent: the files write_file and edit_file
 * changed since, as they were (code), and the conversation without that message and what followed
 * (conversation). Both halves happen together or not at all, even under kill -9 (see journal.ts).
 * Call with the session's lock held and after `recoverRewind`. Throws RewindError.
 * @example await rewindSession({ sessionDir, sessionId, to: 2, code: true, conversation: true });
 */
export async function rewindSession(request: RewindRequest): Promise<RewindOutcome> {
  const { sessionDir, sessionId, to } = request;
  const message = messageAt(sessionDir, to);
  const log = readCheckpointLog(sessionDir);
  const plan: CodePlan = request.code
    ? await planCode(log, message.offset, request.workspace ?? null)
    : { restore: [], unchanged: [], conflicts: [], unrestorable: [], outside: [] };
  const show = (file: string) => (request.workspace ? path.relative(request.workspace, file) || file : file);
  const left = [
    ...plan.unrestorable.map((item) => ({ path: show(item.file), why: 'too large to checkpoint when it was changed' })),
    ...plan.outside.map((item) => ({ path: item.file, why: `not written: ${item.why}` })),
  ];
  const messagesBefore = loadTranscript(sessionDir).messages.length;
  const base = { message, left, messagesBefore };
  if (plan.outside.length > 0 && !request.confirm) {
    const names = plan.outside.map((item) => `${item.file} (${item.why})`);
    throw new RewindError(
      'REWIND_CONFLICT',
      `not rewound: a rewind never writes outside the workspace, and ${names.length === 1 ? 'this file is' : 'these files are'} outside it now: ${names.join('; ')}. Nothing was changed; put the folder${names.length === 1 ? '' : 's'} back, or rewind in the terminal UI to restore the rest.`,
      plan.outside.map((item) => item.file),
    );
  }
  if (plan.conflicts.length > 0) {
    const names = plan.conflicts.map((item) => show(item.file));
    if (!request.confirm) {
      throw new RewindError(
        'REWIND_CONFLICT',
        `not rewound: ${names.length === 1 ? 'this file was' : 'these files were'} changed outside xagent since its last change, and the rewind would overwrite ${names.length === 1 ? 'it' : 'them'}: ${names.join(', ')}. Rewind in the terminal UI to be asked, or put the file${names.length === 1 ? '' : 's'} back first.`,
        names,
      );
    }
    if (!(await request.confirm(names))) return { kind: 'cancelled', files: [], messagesAfter: messagesBefore, ...base };
  }

  const id = randomUUID();
  const restore: FilePlan[] = [...plan.restore, ...plan.conflicts];
  const files: Journal['files'] = restore.map((item) =>
    item.target.kind === 'file'
      ? { file: item.file, action: 'write', aside: asidePath(item.file, id), mode: item.target.mode, sha256: item.target.sha256 }
      : { file: item.file, action: 'delete' },
  );
  const changes: FileChange[] = restore.map((item) => ({ file: item.file, before: item.current, after: item.target, kept: true }));
  const bytesAfter = request.conversation ? message.offset : transcriptSize(sessionDir);
  const shown = files.map((item) => ({
    path: show(item.file),
    action: item.action === 'write' ? ('restored' as const) : ('deleted' as const),
  }));
  const messagesAfter = request.conversation ? messagesBeforeOffset(sessionDir, message) : messagesBefore;
  const ts = new Date().toISOString();
  const journal: Journal = {
    v: 1,
    id,
    session_id: sessionId,
    state: 'staging',
    dirs: missingParents(files.filter((item) => item.action === 'write').map((item) => item.file)),
    files,
    transcript: request.conversation
      ? {
          aside: asidePath(path.join(sessionDir, 'transcript.jsonl'), id),
          bytes: message.offset,
          archive: path.join(rewoundDir(sessionDir), `${id}.transcript.jsonl`),
        }
      : null,
    line: { v: CHECKPOINT_LOG_VERSION, kind: 'rewind', ts, id, transcript_bytes: bytesAfter, changes },
    record: {
      event: 'rewind',
      rewind_id: id,
      to,
      message: message.text.slice(0, 200),
      code: request.code,
      conversation: request.conversation,
      messages_before: messagesBefore,
      messages_after: messagesAfter,
      files: shown,
      left,
    },
  };
  const store = new BlobStore(sessionDir, checkpointCap());
  runJournal(sessionDir, journal, (sha) => store.get(sha), request.workspace ?? null);
  return { kind: 'done', files: shown, messagesAfter, ...base };
}

/** User message `n`, or a RewindError that says which numbers there are. */
export function messageAt(sessionDir: string, n: number): UserMessage {
  const messages = userMessages(sessionDir);
  const found = messages[n - 1];
  if (!Number.isInteger(n) || !found) {
    throw new RewindError(
      'REWIND_NO_SUCH_MESSAGE',
      messages.length === 0
        ? 'this session has no user messages to go back to'
        : `there is no user message ${n}: this session has ${messages.length} (xagent rewind <session> --list numbers them)`,
    );
  }
  return found;
}

/** How many messages the conversation has when cut before `message` (compactions before it applied). */
function messagesBeforeOffset(sessionDir: string, message: UserMessage): number {
  return conversationOf(transcriptPrefix(sessionDir, message.offset)).length;
}

/** Parent folders of `files` that do not exist, outermost first, each once. */
function missingParents(files: readonly string[]): string[] {
  const missing: string[] = [];
  for (const file of files) {
    const chain: string[] = [];
    for (let dir = path.dirname(file); !existsSync(dir) && dir !== path.dirname(dir); dir = path.dirname(dir)) chain.unshift(dir);
    for (const dir of chain) if (!missing.includes(dir)) missing.push(dir);
  }
  return missing;
}
