import { BaseAnthropic } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { sdkOptions } from '../../src/model/anthropic.js';

describe('the SDK client options', () => {
  it('turn the SDK’s own OpenTelemetry spans and trace headers off unless asked for', () => {
    const quiet = new BaseAnthropic(sdkOptions({ apiKey: 'k', model: 'claude-x' }));
    expect(quiet.openTelemetry.traces.enabled).toBe(false);
    expect(quiet.openTelemetry.propagation).toBe(false);
    const traced = new BaseAnthropic(sdkOptions({ apiKey: 'k', model: 'claude-x', openTelemetry: true }));
    expect(traced.openTelemetry.traces.enabled).toBe(true);
  });

  it('leave retries to our own loop, which reports each one', () => {
    expect(sdkOptions({ apiKey: 'k', model: 'claude-x' }).maxRetries).toBe(0);
  });
});
