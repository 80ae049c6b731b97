/** The OS sandbox (bubblewrap): what the CLI, the bash tool's wiring, hooks and MCP servers import. */
export { bwrapArgs, type BwrapArgsInput } from './bwrap-args.js';
export { findBwrap, INSTALL_HINT, SandboxUnavailableError } from './find-bwrap.js';
export {
  DEFAULT_HIDDEN,
  PROTECTED_IN_GIT_DIR,
  PROTECTED_IN_WORKSPACE,
  ProtectedLinkError,
  planMounts,
  type Mount,
  type MountPlan,
} from './mount-plan.js';
export { sweepPlaceholders } from './placeholders.js';
export { assertSandboxStarts, checkSandbox, type CheckResult } from './sandbox-check.js';
export {
  parseSandboxLayer,
  resolveSandboxSettings,
  SandboxSettingsError,
  type SandboxLayer,
  type SandboxSettings,
} from './sandbox-settings.js';
export {
  createSandbox,
  placeholderJournal,
  describeSandbox,
  wrapProcess,
  type ProcessSpec,
  type Sandbox,
  type SandboxedProcess,
  type SandboxOptions,
} from './sandbox.js';
export { sandboxForRun } from './run-sandbox.js';
