import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { SettingsError } from './settings-error.js';

/** The parsed JSON of a settings file, or undefined when there is none. @throws SettingsError */
export function readSettingsFile(file: string): unknown {
  let text: string;
  try {
    text = readRegularFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SettingsError) throw error;
    throw new SettingsError(file, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SettingsError(file, `not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/** A FIFO or a device (a link to /dev/zero) would block start-up or never end: only regular files are read. */
function readRegularFileSync(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile())
      throw new SettingsError(file, 'not a regular file (a pipe, device or socket); settings must be a JSON file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
