import { RestateError } from './errors.js';
import { requestJson } from './http-json.js';
import { STATUS_KEY } from './status-keeper.js';
import { TASK_SERVICE, type TaskStatus } from './task-status.js';

/**
 * Registers a worker's endpoint with the admin API. `force` replaces a deployment already
 * registered at this address (a worker restarted where its predecessor ran); Restate keeps each
 * running invocation on the deployment that started it, so its attempts reach the replacement.
 * @returns the deployment id
 */
export async function registerDeployment(admin: string, uri: string): Promise<string> {
  const answer = await requestJson(`${admin}/deployments`, { method: 'POST', body: { uri, force: true } });
  if (!answer.ok)
    throw new RestateError(
      'RESTATE_REFUSED',
      `the Restate admin API at ${admin} refused to register ${uri}: ${answer.refusal.status} ${answer.refusal.message}`,
    );
  return String((answer.value as { id?: unknown }).id ?? '');
}

/** A task as `xagent tasks` lists it: its id and status. */
export interface ListedTask {
  id: string;
  status: TaskStatus;
}

/** Every task the server knows, from its state table (the admin API's SQL introspection), by id. */
export async function listTasks(admin: string): Promise<ListedTask[]> {
  const query = `SELECT service_key, value_utf8 FROM state WHERE service_name = '${TASK_SERVICE}' AND key = '${STATUS_KEY}'`;
  const answer = await requestJson(`${admin}/query`, { method: 'POST', body: { query } });
  if (!answer.ok)
    throw new RestateError('RESTATE_REFUSED', `the Restate admin API at ${admin} refused the task list: ${answer.refusal.message}`);
  const rows = (answer.value as { rows?: Array<{ service_key: string; value_utf8: string }> }).rows ?? [];
  return rows
    .map((row) => ({ id: row.service_key, status: JSON.parse(row.value_utf8) as TaskStatus }))
    .sort((a, b) => a.id.localeCompare(b.id));
}
