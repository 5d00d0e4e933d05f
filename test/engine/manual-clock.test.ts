/**
 * The manual clock tests pass to the engine: time moves only when told, waits fire in order of
 * their time, and what was scheduled can be read back.
 */
import { describe, expect, test } from 'vitest';
import { createManualClock } from '../../engine/index.js';

describe('createManualClock', () => {
  test('fires waits in order of their time as it advances, with now set to each one', async () => {
    const clock = createManualClock(1_000);
    const fired: Array<[string, number]> = [];
    clock.setTimer(() => fired.push(['late', clock.now()]), 300);
    void clock.sleep(100).then(() => fired.push(['sleep', clock.now()]));
    clock.setTimer(() => fired.push(['early', clock.now()]), 50);
    expect(clock.pending().map((wait) => [wait.kind, wait.delayMs, wait.dueAt])).toEqual([
      ['timer', 50, 1_050],
      ['sleep', 100, 1_100],
      ['timer', 300, 1_300],
    ]);
    await clock.advance(200);
    expect(fired).toEqual([
      ['early', 1_050],
      ['sleep', 1_100],
    ]);
    expect(clock.now()).toBe(1_200);
    await clock.advance(100);
    expect(fired.at(-1)).toEqual(['late', 1_300]);
    expect(clock.pending()).toEqual([]);
  });

  test('repeats until cancelled, and a cancelled timer never fires', async () => {
    const clock = createManualClock(0);
    const ticks: number[] = [];
    const repeating = clock.setRepeating(() => ticks.push(clock.now()), 10);
    const cancelled = clock.setTimer(() => ticks.push(-1), 15);
    cancelled.cancel();
    await clock.advance(35);
    expect(ticks).toEqual([10, 20, 30]);
    repeating.cancel();
    await clock.advance(100);
    expect(ticks).toEqual([10, 20, 30]);
    expect(clock.history.map((wait) => wait.kind)).toEqual(['repeating', 'timer']);
  });

  test('a sleep rejects with the reason of its aborted signal and leaves nothing pending', async () => {
    const clock = createManualClock(0);
    const controller = new AbortController();
    const sleeping = clock.sleep(1_000, controller.signal);
    controller.abort(new Error('deadline'));
    await expect(sleeping).rejects.toThrow('deadline');
    expect(clock.pending()).toEqual([]);
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(clock.sleep(5, aborted)).rejects.toThrow('already');
  });

  test('nextWait resolves when the engine schedules a matching wait; advanceToNext jumps to it', async () => {
    const clock = createManualClock(0);
    const next = clock.nextWait((wait) => wait.delayMs > 100);
    clock.setTimer(() => undefined, 50);
    clock.setTimer(() => undefined, 500);
    expect(await next).toEqual({ kind: 'timer', delayMs: 500, dueAt: 500 });
    expect(await clock.advanceToNext()).toEqual({ kind: 'timer', delayMs: 50, dueAt: 50 });
    expect(clock.now()).toBe(50);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
    await clock.advance(450);
    await expect(clock.advanceToNext()).rejects.toThrow('nothing is scheduled');
  });
});
