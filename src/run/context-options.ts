import { modelInfo } from '../model/models.js';
import { UsageError } from '../errors/xagent-error.js';

/** The API refuses a smaller thinking budget. */
export const MIN_THINKING_TOKENS = 1024;
/** Below this a system prompt and one round do not fit; such a window is a typo. */
export const MIN_CONTEXT_WINDOW = 4096;

function wholeNumber(text: string, what: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${what} "${text}" must be a whole number`);
  return Number(text.trim());
}

/**
 * --max-thinking-tokens (or MAX_THINKING_TOKENS) and --context-window (or XAGENT_CONTEXT_WINDOW),
 * checked; the flag wins over the variable, and the window defaults to the model's.
 * @example parseContextOptions({ maxThinkingTokens: '2048' }, {}, 'claude-sonnet-4-5') // => { maxThinkingTokens: 2048, contextWindow: 200000 }
 */
export function parseContextOptions(
  raw: { maxThinkingTokens?: string; contextWindow?: string },
  env: NodeJS.ProcessEnv,
  modelId: string,
  names: { maxThinkingTokens: string; contextWindow: string } = {
    maxThinkingTokens: '--max-thinking-tokens',
    contextWindow: '--context-window',
  },
): { maxThinkingTokens: number; contextWindow: number } {
  const thinkingText = raw.maxThinkingTokens ?? env.MAX_THINKING_TOKENS;
  const thinkingWhat = raw.maxThinkingTokens !== undefined ? names.maxThinkingTokens : 'MAX_THINKING_TOKENS';
  const maxThinkingTokens = thinkingText === undefined || thinkingText === '' ? 0 : wholeNumber(thinkingText, thinkingWhat);
  if (maxThinkingTokens !== 0 && maxThinkingTokens < MIN_THINKING_TOKENS) {
    throw new UsageError(`${thinkingWhat} must be 0 (off) or at least ${MIN_THINKING_TOKENS}, the API's smallest thinking budget`);
  }
  const windowText = raw.contextWindow ?? env.XAGENT_CONTEXT_WINDOW;
  const windowWhat = raw.contextWindow !== undefined ? names.contextWindow : 'XAGENT_CONTEXT_WINDOW';
  const contextWindow =
    windowText === undefined || windowText === '' ? modelInfo(modelId).contextWindow : wholeNumber(windowText, windowWhat);
  if (contextWindow < MIN_CONTEXT_WINDOW) throw new UsageError(`${windowWhat} must be at least ${MIN_CONTEXT_WINDOW} tokens`);
  return { maxThinkingTokens, contextWindow };
}
