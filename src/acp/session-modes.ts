import type { SessionMode, SessionModeState } from '@agentclientprotocol/sdk';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/types.js';

/** xagent's permission modes, as the editor offers them in its mode picker. */
const MODES: Record<PermissionMode, Omit<SessionMode, 'id'>> = {
  default: { name: 'Default', description: 'Asks before edits, commands and other tools that change things' },
  acceptEdits: { name: 'Accept edits', description: 'Edits files in the workspace without asking; still asks for commands' },
  plan: { name: 'Plan', description: 'Reads and plans; changes nothing' },
  dontAsk: { name: "Don't ask", description: 'Refuses whatever would need asking' },
  bypassPermissions: { name: 'Bypass permissions', description: 'Runs every tool without asking (deny rules still apply)' },
};

/** The session's mode state for `session/new` and `session/load`. */
export function sessionModeState(current: PermissionMode): SessionModeState {
  return { currentModeId: current, availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODES[id] })) };
}

/** A mode id from the editor, or null when it is not one of ours. */
export function permissionModeOf(id: string): PermissionMode | null {
  return (PERMISSION_MODES as readonly string[]).includes(id) ? (id as PermissionMode) : null;
}
