import { assign, createMachine, spawnChild, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { queryEngine } from '../../machines/query-engine.js';
import { duplicateTransitionIds, invocationsOutOfPlace, spawnsOutsideInvoke, waitingStays } from './chart-walk.js';

/**
 * Every wait is a state that invokes its actor (DESIGN.md, "Every wait is a state"): no flag in the
 * context stands in for a state, no actor is spawned inside an action, no transition exists only to
 * stay. Each check is also run on a copy of the chart broken on purpose, to show it would notice.
 */

type Config = { states: Record<string, Record<string, unknown>> } & Record<string, unknown>;
const config = queryEngine.config as unknown as Config;

/** The chart with one top-level state's config changed, with the same implementations. */
function variant(state: string, change: (stateConfig: Record<string, unknown>) => Record<string, unknown>): AnyStateMachine {
  const states = { ...config.states, [state]: change(config.states[state] ?? {}) };
  return createMachine({ ...config, states } as never, queryEngine.implementations as never);
}

describe('the chart has no waiting stays', () => {
  it('has no targetless transition that only stays, and no guard standing in for a running actor', () => {
    expect(waitingStays(queryEngine)).toEqual([]);
  });

  it('spawns nothing outside a state that owns it: every actor is invoked by a state, or spawned and stopped by one', () => {
    expect(spawnsOutsideInvoke(queryEngine)).toEqual([]);
  });

  it('has every state that waits invoke exactly one actor, and every state passed through invoke none', () => {
    expect(invocationsOutOfPlace(queryEngine)).toEqual([]);
  });

  it('gives every transition an id of its own', () => {
    expect(duplicateTransitionIds(queryEngine)).toEqual([]);
  });
});

describe('the walker notices a chart that breaks those rules', () => {
  it('flags a targetless always that waits on a guard', () => {
    const stays = variant('recover', (s) => ({ ...s, always: [{ guard: 'maxTurnsReached' }] }));
    expect(waitingStays(stays)).toEqual([
      'recover:always[maxTurnsReached]: stays and does nothing',
      'recover:always[maxTurnsReached]: an eventless transition that stays',
    ]);
  });

  it('flags a guard named after a running child, even with a target', () => {
    const flag = variant('recover', (s) => ({ ...s, always: [{ guard: 'childRunning', target: 'recover' }, ...[s.always].flat()] }));
    expect(waitingStays(flag)).toEqual(['recover:always[childRunning]>recover: guard childRunning stands in for a state']);
  });

  it('flags a spawn inside assign and a spawnChild action', () => {
    const spawning = variant('validate_tool', (s) => ({
      ...s,
      entry: [
        assign(({ spawn }) => {
          spawn('runHooks', { id: 'sideHooks' });
          return {};
        }),
        spawnChild('runHooks', { id: 'otherHooks' }),
        s.entry,
      ],
    }));
    expect(spawnsOutsideInvoke(spawning)).toEqual(['validate_tool entry: spawns inside xstate.assign', 'validate_tool entry: spawnChild']);
  });

  it('flags a wait with no actor, and a state passed through that invokes one', () => {
    const broken = createMachine(
      {
        ...config,
        states: {
          ...config.states,
          validate_tool: { ...config.states.validate_tool, always: undefined },
          recover: { ...config.states.recover, invoke: { id: 'stray', src: 'runHooks' } },
        },
      } as never,
      queryEngine.implementations as never,
    );
    expect(invocationsOutOfPlace(broken)).toEqual([
      'validate_tool waits but invokes 0 actors []',
      'recover does not wait but invokes [stray]',
    ]);
  });

  it('flags two transitions of one state that share an id', () => {
    const twice = variant('validate_tool', (s) => ({
      ...s,
      always: [{ guard: 'ruleFailed', target: 'done' }, ...(s.always as unknown[])],
    }));
    expect(duplicateTransitionIds(twice)).toEqual(['validate_tool:always[ruleFailed]>done']);
  });
});
