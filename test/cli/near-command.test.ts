import { describe, expect, it } from 'vitest';
import { nearCommand } from '../../src/cli/near-command.js';
import { runCli } from '../support/run-cli.js';

const COMMANDS = ['diagram', 'inspect', 'paths', 'sessions', 'sandbox', 'mcp'];

describe('a mistyped subcommand is an error, not a prompt', () => {
  it('finds the command a lone word was meant to be', () => {
    expect(nearCommand(['sesions'], COMMANDS)).toBe('sessions');
    expect(nearCommand(['sessoins'], COMMANDS)).toBe('sessions');
    expect(nearCommand(['diagrm'], COMMANDS)).toBe('diagram');
  });

  it('leaves real prompts alone: several words, far words, short command names', () => {
    expect(nearCommand(['list', 'sesions'], COMMANDS)).toBeNull();
    expect(nearCommand(['refactor'], COMMANDS)).toBeNull();
    expect(nearCommand(['map'], COMMANDS)).toBeNull();
    expect(nearCommand(['sessions'], COMMANDS)).toBeNull();
  });

  it('xagent sesions exits 2 with the command it meant, before any request', async () => {
    const run = await runCli(['sesions'], { env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "sesions": did you mean "xagent sessions"?');
  });
});
