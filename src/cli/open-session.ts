import { visible } from '../permissions/request-view.js';
import { resumedLine } from '../sessions/interruption.js';
import { openSessionForRun, type RunSession } from '../sessions/open-for-run.js';
import type { RawOptions, RunConfig } from './run-config.js';

/** The session a run works in (new, --resume or --continue); its warnings go to stderr. */
export function openSession(config: RunConfig, raw: RawOptions): RunSession {
  const session = openSessionForRun({
    home: config.home,
    workspace: config.workspace,
    modelId: config.modelId,
    ...(raw.resume !== undefined ? { resume: raw.resume } : {}),
    continue: raw.continue === true,
  });
  for (const warning of session.warnings) process.stderr.write(`xagent: warning: ${warning}\n`);
  if (!session.isNew) process.stderr.write(`${visible(resumedLine(session.sessionId, session.messages))}\n`);
  return session;
}
