import { waitForTask, submitTask } from '../restate/ingress-client.js';
import type { TaskOutput } from '../restate/task-status.js';
import { taskSpecOf } from '../restate/task-spec.js';
import { ingressUrl } from '../restate/urls.js';
import { checkTaskOptions, type TaskOptions } from '../run/task-options.js';

/** Where the Restate server's ingress is: `restateUrl`, else $RESTATE_INGRESS_URL, else http://127.0.0.1:8080. */
export interface RestateOptions {
  restateUrl?: string;
  /** Read for RESTATE_INGRESS_URL and XAGENT_TRUST; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** The options of a durable task: a task's (TaskOptions), and whether to trust the workspace. `cwd` is the workspace as the workers see it (default process.cwd()). */
export interface SubmitOptions extends TaskOptions, RestateOptions {
  /** Use the workspace's project MCP servers, hooks and allow rules. */
  trust?: boolean;
}

/**
 * Starts a task on the Restate workers (`xagent serve --restate`) and resolves with its id once
 * the server holds it durably; the task runs whether or not this process lives on.
 * Throws a UsageError for a bad option, a RestateError when the server does not take it.
 * @example const id = await submit('fix the failing test', { cwd: '/srv/checkout', maxTurns: 30 }); const result = await wait(id);
 */
export async function submit(prompt: string, options: SubmitOptions = {}): Promise<string> {
  const env = options.env ?? process.env;
  checkTaskOptions(options as Readonly<Record<string, unknown>>);
  const text = (n: number | undefined) => (n === undefined ? undefined : String(n));
  const spec = taskSpecOf(
    prompt,
    {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.model !== undefined ? { model: options.model } : {}),
      maxTurns: text(options.maxTurns),
      maxToolCalls: text(options.maxToolCalls),
      timeout: text(options.timeoutMs),
      ...(options.permissionMode !== undefined ? { permissionMode: options.permissionMode } : {}),
      allow: [...(options.allow ?? [])],
      deny: [...(options.deny ?? [])],
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.appendSystemPrompt !== undefined ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
      ...(options.maxThinkingTokens !== undefined ? { maxThinkingTokens: String(options.maxThinkingTokens) } : {}),
      trust: options.trust === true,
    },
    process.cwd(),
    env,
  );
  return submitTask(ingressUrl(options.restateUrl, env), spec);
}

/**
 * Waits for a durable task's end (minutes or days) and resolves with its result: the object
 * `xagent -p --output-format json` prints. Throws a RestateError for an unknown task or one that could not run.
 */
export function wait(taskId: string, options: RestateOptions & { signal?: AbortSignal } = {}): Promise<TaskOutput> {
  return waitForTask(ingressUrl(options.restateUrl, options.env ?? process.env), taskId, options.signal);
}
