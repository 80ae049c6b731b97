import type { ToolCall } from '../../../machines/types.js';
import type { AgentEvent, QueryResult } from '../../engine/events.js';
import { visible } from '../../permissions/request-view.js';
import { stopMessage, type StopMessageLimits } from '../../engine/stop-message.js';
import type { Renderer, Streams } from './renderer.js';
import { Spinner } from './spinner.js';
import { createStyle } from './style.js';

/** A short, one-line view of a call's input: the path, the pattern or the command. */
export function describeCall(call: ToolCall): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const main = input.command ?? input.path ?? input.pattern ?? '';
  const text = typeof main === 'string' ? main : JSON.stringify(main);
  return `${call.name}(${text.length > 80 ? `${text.slice(0, 77)}...` : text})`;
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  const lines = text.split('\n').length;
  return `${line.length > 100 ? `${line.slice(0, 97)}...` : line}${lines > 1 ? ` (+${lines - 1} lines)` : ''}`;
}

/** `--output-format text`: the answer streams to stdout; tool activity and the stop message to stderr. */
export function textRenderer(streams: Streams, limits: StopMessageLimits): Renderer {
  const { stdout, stderr } = streams;
  const style = createStyle(stderr);
  const spinner = new Spinner(stderr);
  let atLineStart = true;
  const writeOut = (text: string) => {
    if (!text) return;
    stdout.write(text);
    atLineStart = text.endsWith('\n');
  };
  const endLine = () => {
    if (!atLineStart) writeOut('\n');
  };

  return {
    onEvent(event: AgentEvent) {
      switch (event.type) {
        case 'state':
          if (event.name === 'call_model') spinner.start();
          else spinner.stop();
          break;
        case 'text_delta':
          spinner.stop();
          writeOut(event.text);
          break;
        case 'tool_start':
          spinner.stop();
          endLine();
          // Model- and tool-written text can carry terminal escapes; show them, never obey them.
          stderr.write(`${style.dim('⏺')} ${visible(describeCall(event.call))}\n`);
          break;
        case 'tool_result': {
          const mark = event.result.is_error ? style.red('✗') : style.green('⎿');
          stderr.write(`  ${mark} ${style.dim(visible(firstLine(event.result.content)))}\n`);
          break;
        }
        case 'retry':
          spinner.stop();
          stderr.write(style.yellow(`  retrying the model request (attempt ${event.attempt}, ${visible(event.message)})\n`));
          break;
        case 'turn_end':
        case 'usage':
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
      endLine();
      const message = stopMessage(result, limits);
      if (!message) return;
      const color = result.reason === 'final_answer' ? style.yellow : style.red;
      stderr.write(`${color(visible(message))}\n`);
    },
  };
}
