/** A settings file (or flag) that cannot be used; the CLI exits 2 with this message. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
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
