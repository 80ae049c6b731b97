import { randomUUID } from 'node:crypto';
import { RestateError } from './errors.js';
import { requestJson, type Refusal } from './http-json.js';
import type { TaskOutput } from './task-status.js';
import type { TaskSpec } from './task-spec.js';
import { TASK_SERVICE, type CallAnswer, type TaskStatus } from './task-status.js';

/**
 * The task commands' view of Restate: its ingress, over plain HTTP (no SDK). Every method takes
 * the ingress URL (`ingressUrl()`: --restate-url, $RESTATE_INGRESS_URL, http://127.0.0.1:8080).
 */

/** Starts a task; resolves with its id (a new session id) once Restate has it durably. */
export async function submitTask(ingress: string, spec: TaskSpec): Promise<string> {
  const id = randomUUID();
  const answer = await requestJson(`${ingress}/${TASK_SERVICE}/${id}/run/send`, { method: 'POST', body: spec });
  if (!answer.ok) throw refused(answer.refusal, `submitting the task`);
  return id;
}

/** A task's status; TASK_NOT_FOUND when no task has this id. */
export async function taskStatus(ingress: string, id: string): Promise<TaskStatus> {
  const answer = await requestJson(`${ingress}/${TASK_SERVICE}/${encodeURIComponent(id)}/status`, { method: 'POST', body: null });
  if (!answer.ok) throw refused(answer.refusal, `reading task ${id}`);
  if (answer.value === null) throw new RestateError('TASK_NOT_FOUND', `no task ${id} (xagent tasks lists them)`);
  return answer.value as TaskStatus;
}

/**
 * Waits for a task's end and gives its result (what `-p --output-format json` prints). The
 * request stays open while the task runs, however long; TASK_FAILED when it could not run.
 */
export async function waitForTask(ingress: string, id: string, signal?: AbortSignal): Promise<TaskOutput> {
  const url = `${ingress}/restate/workflow/${TASK_SERVICE}/${encodeURIComponent(id)}/attach`;
  let answer: Awaited<ReturnType<typeof requestJson>> | undefined;
  while (!answer) {
    try {
      answer = await requestJson(url, { method: 'GET', ...(signal ? { signal } : {}) });
    } catch (error) {
      // fetch gives up on a response that has not begun after 5 minutes; the task may take days: attach again.
      if (!(error instanceof RestateError && causeCode(error) === 'UND_ERR_HEADERS_TIMEOUT')) throw error;
    }
  }
  if (answer.ok) return answer.value as TaskOutput;
  if (answer.refusal.status === 404) throw new RestateError('TASK_NOT_FOUND', `no task ${id} (xagent tasks lists them)`);
  if (answer.refusal.status >= 400 && answer.refusal.status < 500) throw new RestateError('TASK_FAILED', answer.refusal.message);
  throw refused(answer.refusal, `waiting for task ${id}`);
}

/** Answers the `ask` one call of the task waits on; CALL_NOT_WAITING when it waits for no such call. */
export async function answerCall(ingress: string, id: string, answer: CallAnswer): Promise<void> {
  const reply = await requestJson(`${ingress}/${TASK_SERVICE}/${encodeURIComponent(id)}/answer`, { method: 'POST', body: answer });
  if (reply.ok) return;
  if (reply.refusal.status === 404) throw new RestateError('TASK_NOT_FOUND', reply.refusal.message);
  if (reply.refusal.status === 409) throw new RestateError('CALL_NOT_WAITING', reply.refusal.message);
  if (reply.refusal.status === 403) throw new RestateError('RESTATE_REFUSED', reply.refusal.message);
  throw refused(reply.refusal, `answering call ${answer.tool_use_id} of task ${id}`);
}

function refused(refusal: Refusal, doing: string): RestateError {
  if (refusal.status === 404 && /service .* not found|not found/i.test(refusal.message))
    return new RestateError('RESTATE_REFUSED', `${doing}: ${refusal.message} (is a worker registered? xagent serve --restate)`);
  return new RestateError('RESTATE_REFUSED', `${doing}: the Restate server answered ${refusal.status}: ${refusal.message}`);
}

function causeCode(error: Error): string | undefined {
  return ((error.cause as { cause?: { code?: unknown } } | undefined)?.cause?.code as string | undefined) ?? undefined;
}
