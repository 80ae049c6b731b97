/**
 * Turns on the one thread for the many tasks of a process. A thousand tasks whose model answers
 * arrive together each have a millisecond or more of work to do with them; run back to back in one
 * turn of the event loop, that was a stall of seconds in which no timer fired, no socket was read
 * and no task made progress but the one running. Each task asks for a turn at the points where its
 * work is cut (each event of a model's answer, the end of a tool call): inside the current slice
 * of time it goes on at once, synchronously; past it, it waits for the next turn of the loop
 * (timers and sockets run first), and waiting tasks go on in the order they came.
 *
 * One task alone never waits: a slice ends only when the loop is still busy after SLICE_MS.
 */

/** How long the tasks run before the loop gets its turn: well under the 200 ms a stall may last. */
const SLICE_MS = 20;

/** When the current slice ends (performance.now()); 0 when none is open (the loop came round since). */
let sliceEnds = 0;
/** A setImmediate is set that ends the slice (and releases waiting tasks) once the loop comes round. */
let endPending = false;
const waiting: Array<() => void> = [];
/** When the slice that released tasks opened, and how many it released: what a released task costs. */
let releasedAt = 0;
let released = 0;
/** The loop's time per task released, as last measured (ms; 1 until measured): a slice releases no more than fit in it. */
let costPerTask = 1;

/**
 * null: go on now. A promise: await it, the loop's turn comes first.
 * @example const turn = fairTurn(); if (turn) await turn;
 */
export function fairTurn(): Promise<void> | null {
  if (sliceEnds === 0) {
    openSlice();
    return null;
  }
  if (waiting.length === 0 && performance.now() < sliceEnds) return null;
  return new Promise<void>((resolve) => waiting.push(resolve));
}

function openSlice(): void {
  sliceEnds = performance.now() + SLICE_MS;
  if (!endPending) {
    endPending = true;
    setImmediate(endSlice);
  }
}

/** The loop came round (timers and sockets had their turn): a new slice for the tasks waiting. */
function endSlice(): void {
  endPending = false;
  sliceEnds = 0;
  // A released task's work runs on in microtasks after the one `next` waits for (an await chain of
  // ready promises): the clock alone let a slice release dozens of tasks that then ran for seconds
  // (10,000 tasks' setups: stalls of 2-5 s). So a slice also releases no more tasks than the last
  // ones took to fit in SLICE_MS, from the loop's own time between two turns.
  if (released > 0) costPerTask = (performance.now() - releasedAt) / released;
  released = 0;
  if (waiting.length === 0) return;
  openSlice();
  releasedAt = performance.now();
  const fits = Math.max(1, Math.floor(SLICE_MS / costPerTask));
  // One task at a time, each after the previous one's work ran (a microtask queued behind it),
  // until the slice is used up; the rest wait for the next turn.
  const next = () => {
    if (waiting.length === 0 || released >= fits || performance.now() >= sliceEnds) return;
    released += 1;
    waiting.shift()?.();
    queueMicrotask(next);
  };
  next();
}

/**
 * A turn of the event loop (what an instant answer never gives up), then a fair turn: the tasks
 * that yield together go on a slice at a time, not all in the same turn of the loop.
 * @example await yieldTurn(); // before a model request
 */
export async function yieldTurn(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const turn = fairTurn();
  if (turn) await turn;
}
