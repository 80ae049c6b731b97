import { createScriptedClient, loadModelScript } from '../model/scripted.js';
import type { ModelClient } from '../model/types.js';

/**
 * A `--model-script` model for durable tasks. The scripted client answers in order, counting its
 * requests; a replayed task takes its finished rounds from the journal without asking, so the
 * count would fall behind. This one answers round n (n assistant messages so far) with the
 * script's response n, whatever was asked before: the same answer on every attempt.
 */
export function scriptedByRound(file: string): ModelClient {
  const script = loadModelScript(file);
  return {
    name: 'scripted',
    createMessage(request) {
      const round = request.messages.filter((message) => message.role === 'assistant').length;
      return createScriptedClient({ responses: script.responses.slice(round) }).createMessage(request);
    },
  };
}
