/**
 * The request body as UTF-8 JSON, byte for byte `JSON.stringify(buildRequestBody(args))` (the reference builder in test/support/reference-request.ts),
 * without re-serialising the whole conversation every round.
 *
 * Every round resends the conversation. `JSON.stringify` of all of it, the string copies around
 * it (length, header prepend, UTF-8 encoding) and normalising every message grew with it: ~0.5 ms
 * of CPU and four 150 kB copies on the heap per round at 150 rounds (bench/README.md, issue 17).
 * A message never changes once the engine has appended it, so its JSON is made once and kept;
 * a round makes only what changes: the newest message (it carries the rolling cache breakpoint)
 * and the merge of a message into its same-role neighbour. `buildRequestBody` (test support) is the
 * reference: tests compare the two on generated conversations, round by round.
 */
import type { Message } from '../../machines/types.js';
import { EPHEMERAL, markableIndex } from './cache-breakpoints.js';
import {
  type BuildRequestArgs,
  isEmptyText,
  normalizeBlock,
  requestMaxTokens,
  requestSystem,
  requestTools,
  toolResultsFirst,
} from './request.js';
import type { ToolSpec } from './types.js';

type Block = Message['content'][number];

/** Consecutive same-role messages, merged into one as the API requires. */
interface Group {
  role: Message['role'];
  blocks: Block[];
  /** How many input messages, from where the group starts, it covers (empty ones included). */
  span: number;
}

/**
 * The tails made lately, by their JSON: tasks of one run send the same system prompt and tool list,
 * so thousands of tasks in one process share one buffer (~8 kB each) instead of keeping one each.
 */
const sharedTails = new Map<string, Buffer>();
const SHARED_TAILS = 16;
const EMPTY = Buffer.alloc(0);
/** From this size on a body is written in place (lent) rather than made anew each round. */
const IN_PLACE_BYTES = 64 * 1024;
const EMPTY_PREFIX = (head: string): Prefix => ({ head, count: 0, lastGroup: undefined, bytes: EMPTY, length: 0 });

/** The request's head and the JSON of the first `count` groups, comma-joined, in a buffer that grows as the conversation does. */
interface Prefix {
  head: string;
  count: number;
  lastGroup: Group | undefined;
  bytes: Buffer;
  length: number;
}

/**
 * One per client. It keeps the JSON of every block (weakly, so a dropped conversation is
 * collected) and the UTF-8 bytes of the request's head and the settled part of the conversation,
 * every merged message but the newest, in one buffer that grows as the conversation does. A round
 * encodes only the messages settled since the last one and the newest (it carries the rolling
 * cache breakpoint), and writes them and the tail after the settled bytes in that same buffer:
 * the body is a view of it, with no copy of the conversation and no new buffer a round. A new
 * buffer of ~400 kB a round (a 1,000-round `-p` session) made V8 collect the whole heap every few
 * rounds for the external memory alone (bench/README.md, issue 40). Bodies under 64 kB are still
 * made anew: cheap, freed with their request, and a thousand short tasks keep no body each
 * between rounds. A body written in place is lent: the buffer
 * is not written again until `returned(body)` says its request is over; until then a round
 * assembles its body in a new buffer, so a request still sending never sees its bytes change.
 * @example const body = encoder.encode({ model, maxTokens, system, messages, tools }); await send(body); encoder.returned(body);
 */
export class RequestEncoder {
  private readonly blockJson = new WeakMap<Block, string>();
  private tail: { system: string; tools: readonly ToolSpec[]; cache: boolean; thinkingBudget: number; bytes: Buffer } | undefined;
  /** The last round's messages and their groups: the next round usually only appends. */
  private last: { messages: readonly Message[]; groups: Group[] } = { messages: [], groups: [] };
  private prefix: Prefix = EMPTY_PREFIX('');
  /** The body handed out last and not returned yet, and the buffer it is a view of. */
  private lent: { body: Buffer; bytes: Buffer } | undefined;

  encode({ model, maxTokens, system, messages, tools, cache = true, thinkingBudget = 0 }: BuildRequestArgs): Buffer {
    const head = `{"model":${JSON.stringify(model)},"max_tokens":${requestMaxTokens(maxTokens, thinkingBudget)},"messages":[`;
    const groups = this.groups(messages);
    const tail = this.tailBytes(system, tools, cache, thinkingBudget);
    if (groups.length === 0) return Buffer.concat([Buffer.from(head), tail]);
    // Every group but the newest is final; the newest may still grow and carries the rolling breakpoint.
    const settled = groups.length - 1;
    const prefix = this.settledBytes(head, groups, settled);
    const newest = `${settled > 0 ? ',' : ''}${this.groupJson(groups[settled]!, cache)}`;
    const size = prefix.length + Buffer.byteLength(newest) + tail.length;
    // A small body is made anew and freed with its request: many tasks at once keep no body between rounds, and share the tail.
    if (size < IN_PLACE_BYTES) return Buffer.concat([prefix.bytes.subarray(0, prefix.length), Buffer.from(newest), tail], size);
    this.writable(prefix, size);
    const end = prefix.length + prefix.bytes.write(newest, prefix.length);
    tail.copy(prefix.bytes, end);
    const body = prefix.bytes.subarray(0, size);
    this.lent = { body, bytes: prefix.bytes };
    return body;
  }

  /** `body`'s request is over (its answer read whole): its buffer may be written again. */
  returned(body: Buffer): void {
    if (this.lent?.body === body) this.lent = undefined;
  }

  /**
   * Makes room for `size` bytes in the prefix's buffer, in a new one when it is too small or lent
   * (the head and settled bytes copied over; the lent buffer stays as its request has it).
   */
  private writable(prefix: Prefix, size: number): void {
    if (size <= prefix.bytes.length && this.lent?.bytes !== prefix.bytes) return;
    // Doubling when too small keeps the copies few as the conversation grows; a lent buffer is replaced at its size.
    const capacity = size > prefix.bytes.length ? 2 * prefix.bytes.length : prefix.bytes.length;
    const grown = Buffer.allocUnsafe(Math.max(capacity, size, 4096));
    prefix.bytes.copy(grown, 0, 0, prefix.length);
    prefix.bytes = grown;
  }

  /**
   * The head and the bytes of groups[0..count), appending only the groups settled since last round. The kept
   * bytes still hold when the last group they cover is at the same place now: groups() reuses
   * last round's group objects only as a prefix, so that one check covers all before it.
   */
  private settledBytes(head: string, groups: readonly Group[], count: number): Prefix {
    let prefix = this.prefix;
    if (prefix.head !== head || prefix.count > count || (prefix.count > 0 && groups[prefix.count - 1] !== prefix.lastGroup)) {
      prefix = this.prefix = EMPTY_PREFIX(head);
      this.writable(prefix, Buffer.byteLength(head));
      prefix.length = prefix.bytes.write(head, 0);
    }
    for (let g = prefix.count; g < count; g++) {
      const json = `${g > 0 ? ',' : ''}${this.groupJson(groups[g]!, false)}`;
      this.writable(prefix, prefix.length + Buffer.byteLength(json));
      prefix.length += prefix.bytes.write(json, prefix.length);
    }
    prefix.count = count;
    prefix.lastGroup = count > 0 ? groups[count - 1] : undefined;
    return prefix;
  }

  /**
   * mergedGroups(messages), reusing last round's groups for the messages both rounds share (the
   * same objects, in order) except the last of them, which a new message may merge into.
   */
  private groups(messages: readonly Message[]): Group[] {
    const { messages: before, groups: kept } = this.last;
    let shared = 0;
    while (shared < before.length && shared < messages.length && before[shared] === messages[shared]) shared++;
    let reused = 0;
    let covered = 0;
    for (const group of kept) {
      if (covered + group.span >= shared) break;
      covered += group.span;
      reused++;
    }
    const groups = kept.slice(0, reused);
    groups.push(...mergedGroups(messages, covered));
    this.last = { messages, groups };
    return groups;
  }

  /** One merged message as JSON: tool results first in a user message, the breakpoint on its last markable block if asked. */
  private groupJson({ role, blocks }: Group, marked: boolean): string {
    const ordered = role === 'user' ? toolResultsFirst(blocks) : blocks;
    const mark = marked ? markableIndex(ordered) : -1;
    const texts = ordered.map((block, i) =>
      i === mark ? JSON.stringify({ ...normalizeBlock(block), cache_control: EPHEMERAL }) : this.block(block),
    );
    return `{"role":${JSON.stringify(role)},"content":[${texts.join(',')}]}`;
  }

  private block(block: Block): string {
    let json = this.blockJson.get(block);
    if (json === undefined) {
      json = JSON.stringify(normalizeBlock(block));
      this.blockJson.set(block, json);
    }
    return json;
  }

  /** Everything after the messages; the same every round of a task (system prompt and tool list are fixed per task). */
  private tailBytes(system: string, tools: readonly ToolSpec[], cache: boolean, thinkingBudget: number): Buffer {
    const tail = this.tail;
    if (tail && tail.system === system && tail.tools === tools && tail.cache === cache && tail.thinkingBudget === thinkingBudget)
      return tail.bytes;
    let json = '],"stream":true';
    if (system.trim() !== '') json += `,"system":${JSON.stringify(requestSystem(system, cache))}`;
    if (tools.length > 0) json += `,"tools":${JSON.stringify(requestTools(tools, cache))}`;
    if (thinkingBudget > 0) json += `,"thinking":${JSON.stringify({ type: 'enabled', budget_tokens: thinkingBudget })}`;
    json += '}';
    let bytes = sharedTails.get(json);
    if (!bytes) {
      if (sharedTails.size >= SHARED_TAILS) sharedTails.delete(sharedTails.keys().next().value as string);
      bytes = Buffer.from(json);
      sharedTails.set(json, bytes);
    }
    this.tail = { system, tools, cache, thinkingBudget, bytes };
    return bytes;
  }
}

/**
 * normalizeMessages' grouping of messages[from..]: empty text dropped, then empty messages, then
 * same-role neighbours merged. `span` counts the input messages a group covers, empty ones too.
 */
function mergedGroups(messages: readonly Message[], from = 0): Group[] {
  const groups: Group[] = [];
  // Empty messages before the first group: they send nothing, and are counted in its span.
  let leading = 0;
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    const last = groups[groups.length - 1];
    const group = last && last.role === message.role ? last : { role: message.role, blocks: [], span: 0 };
    const before = group.blocks.length;
    for (const block of message.content) if (!isEmptyText(block)) group.blocks.push(block);
    if (group.blocks.length === before) {
      // An empty message sends nothing and merges nothing; it belongs to the span before it.
      if (last) last.span++;
      else leading++;
      continue;
    }
    group.span++;
    if (group !== last) {
      group.span += leading;
      leading = 0;
      groups.push(group);
    }
  }
  return groups;
}
