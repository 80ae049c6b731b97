import { UsageError } from '../errors/xagent-error.js';

/** A settings file (or flag) that cannot be used; the CLI exits 2 with this message. */
export class SettingsError extends UsageError {
  override readonly name = 'SettingsError';
  override readonly fault = 'config';
  readonly code = 'SETTINGS_INVALID';
  constructor(
    /** The file path, or the flag (`--allow`). */
    readonly source: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${source}: ${problem}`, options);
  }
}
