import { hasTag, TAG } from '../../machines/state-tags.js';
import { fromSubagent, type AgentEvent, type QueryResult } from '../engine/events.js';
import { visible } from './visible.js';
import { stopMessage, type StopMessageLimits } from '../engine/stop-message.js';
import type { Renderer, Streams } from './renderer.js';
import { formatElapsed, formatTokens, Spinner } from './spinner.js';
import { createStyle } from './style.js';
import { describeActivity, summarizeResult } from './tool-activity.js';
import { compactLine, hookLine, retryLine } from './event-lines.js';

/** Roughly four characters a token: what the spinner counts while a response streams. */
const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** "thinking… (1234 chars) first words of it…", one line. */
export function thinkingSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `✻ thinking… (${text.length} chars) ${flat.length > 80 ? `${flat.slice(0, 79)}…` : flat}`.trimEnd();
}

/**
 * `--output-format text`: stdout holds the final answer only; narration (text of a turn that
 * goes on to call tools), tool activity, the spinner and the stop message go to stderr. When
 * stdout is a terminal the text streams to it as it comes (a person reads both streams there);
 * otherwise each turn's text is held until the turn ends and is known to be narration or answer.
 */
export function textRenderer(streams: Streams, limits: StopMessageLimits): Renderer {
  const { stdout, stderr } = streams;
  const style = createStyle(stderr);
  const spinner = new Spinner(stderr);
  const live = (stdout as { isTTY?: boolean }).isTTY === true;
  let atLineStart = true;
  let turnText = '';
  let outputTokens = 0;
  const refused = new Set<string>();
  const write = (stream: NodeJS.WritableStream, text: string) => {
    if (!text) return;
    stream.write(text);
    atLineStart = text.endsWith('\n');
  };
  const endLine = () => {
    if (!atLineStart) write(stdout, '\n');
  };
  const flushTurn = (to: NodeJS.WritableStream) => {
    if (!live && turnText) write(to, turnText.endsWith('\n') ? turnText : `${turnText}\n`);
    turnText = '';
  };
  // Thinking is summed up in one dim line on stderr when it ends, never streamed: it is not the answer.
  let thought = '';
  const flushThinking = () => {
    if (!thought) return;
    spinner.stop();
    endLine();
    stderr.write(`${style.dim(visible(thinkingSummary(thought)))}\n`);
    thought = '';
  };
  const thinking = (elapsed: number) =>
    `${style.dim(`Thinking · ${formatElapsed(elapsed)} · ↓ ${formatTokens(outputTokens + estimateTokens(turnText.length))} tokens · Ctrl-C to stop`)}`;

  return {
    onEvent(event: AgentEvent) {
      if (fromSubagent(event)) return;
      if (event.type === 'thinking_delta') {
        thought += event.thinking;
        return;
      }
      flushThinking();
      switch (event.type) {
        case 'state':
          if (hasTag(event, TAG.model)) spinner.start(thinking);
          else if (!hasTag(event, TAG.tool)) spinner.stop();
          // A refusal the model is told of (the task goes on): one line, so a CI log shows what was not run.
          if (event.call && event.decision?.behavior === 'deny' && event.decision.continueWithFeedback && !refused.has(event.call.id)) {
            refused.add(event.call.id);
            endLine();
            stderr.write(`${style.red(visible(`✗ ${describeActivity(event.call)} — not permitted: ${event.decision.decidedBy}`))}\n`);
          }
          break;
        case 'text_delta':
          turnText += event.text;
          if (!live) break;
          spinner.stop();
          write(stdout, event.text);
          break;
        case 'usage':
          outputTokens = event.total.output_tokens;
          break;
        case 'turn_end':
          // A turn that calls tools was narration; the one that ends the task is the answer.
          flushTurn(event.reason === 'tool_use' ? stderr : stdout);
          break;
        case 'tool_start': {
          spinner.stop();
          endLine();
          const label = describeActivity(event.call);
          stderr.write(`${style.dim('⏺')} ${label}\n`);
          spinner.start((elapsed) => style.dim(`${label} · ${formatElapsed(elapsed)} · Ctrl-C to stop`));
          break;
        }
        case 'tool_result': {
          spinner.stop();
          const { summary, detail } = summarizeResult(event.call, event.result);
          const mark = event.result.is_error ? style.red('⎿') : style.dim('⎿');
          stderr.write(`  ${mark} ${event.result.is_error ? style.red(summary) : style.dim(summary)}\n`);
          for (const line of detail) stderr.write(`    ${style.dim(line)}\n`);
          break;
        }
        case 'compact':
          spinner.stop();
          endLine();
          stderr.write(`${style.dim(visible(compactLine(event)))}\n`);
          break;
        case 'retry':
          spinner.stop();
          stderr.write(style.yellow(`  ${visible(retryLine(event))}\n`));
          break;
        case 'hook': {
          const line = hookLine(event);
          if (!line) break;
          spinner.stop();
          endLine();
          const color = event.outcome === 'error' || event.outcome === 'timeout' ? style.yellow : style.dim;
          stderr.write(`${color(visible(line))}\n`);
          break;
        }
        case 'result':
          break;
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    },
    finish(result: QueryResult) {
      spinner.stop();
      flushThinking();
      // Text cut off by a stop (an interrupt, a failed stream) is not an answer.
      flushTurn(stderr);
      endLine();
      const message = stopMessage(result, limits);
      if (!message) return;
      const color = result.reason === 'final_answer' ? style.yellow : style.red;
      stderr.write(`${color(visible(message))}\n`);
    },
  };
}
