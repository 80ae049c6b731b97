import { DEFAULT_LIMITS } from '../engine/limits.js';

/** The flags' defaults as --help shows them, from the one DEFAULT_LIMITS (its own file: --version must not load run-flags' imports). */
export const FLAG_DEFAULTS = {
  maxTurns: String(DEFAULT_LIMITS.maxTurns),
  maxToolCalls: String(DEFAULT_LIMITS.maxToolCalls),
  timeout: `${DEFAULT_LIMITS.timeoutMs / 60_000}m`,
} as const;
