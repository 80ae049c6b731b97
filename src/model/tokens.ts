import type { Message } from '../../machines/types.js';

/**
 * A quick token estimate: a quarter of the JSON length. Good enough to decide when to compact
 * (the threshold leaves 20 % slack); the API's own count arrives with the next usage.
 * @example estimateTokens({ role: 'user', content: 'hello' }) // => 9
 */
export function estimateTokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateTokens(message);
  return total;
}
