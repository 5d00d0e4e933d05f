import fc from 'fast-check';
import { expect } from 'vitest';

/** Which options a kind of call takes, and its longest deadline. */
export interface OptionRules {
  names: readonly string[];
  maxDeadlineMs: number;
}

/** Whether `value` is options the call must take (the oracle the property checks the engine against). */
function takes(value: unknown, { names, maxDeadlineMs }: OptionRules): boolean {
  if (value === undefined) return true;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const options = value as Record<string, unknown>;
  const known = Object.keys(options).every((key) => names.includes(key));
  const deadline =
    options.deadlineMs === undefined ||
    (Number.isInteger(options.deadlineMs) && (options.deadlineMs as number) >= 1 && (options.deadlineMs as number) <= maxDeadlineMs);
  const traffic = options.traffic === undefined || options.traffic === 'sync' || options.traffic === 'interactive';
  const signal = options.signal === undefined || options.signal instanceof AbortSignal;
  return known && deadline && traffic && signal;
}

/** Any value, and objects near the real options: bad and good values, misspelt names, the deadline's edge. */
function optionValues(maxDeadlineMs: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.anything({ withNullPrototype: true, withBoxedValues: true }),
    fc.record(
      {
        deadlineMs: fc.oneof(fc.integer({ min: -5, max: 2 ** 32 }), fc.integer({ min: maxDeadlineMs - 10, max: maxDeadlineMs + 10 }), fc.double(), fc.string()),
        traffic: fc.oneof(fc.constantFrom('sync', 'interactive', 'SYNC', ''), fc.anything()),
        signal: fc.oneof(fc.constant(new AbortController().signal), fc.object(), fc.constant(null)),
        deadline: fc.nat(),
      },
      { requiredKeys: [] },
    ),
  );
}

/**
 * The property both clients hold: any options value is either taken (the call then fails, if at
 * all, with something other than INVALID_REQUEST) or refused with INVALID_REQUEST whose every
 * detail names /options, before anything is sent (`sent` counts what reached the other side).
 */
export async function expectOptionsTakenOrRefused(rules: OptionRules, call: (options: unknown) => Promise<unknown>, sent: () => number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(optionValues(rules.maxDeadlineMs), async (value) => {
      const before = sent();
      const outcome = await call(value).then(
        () => undefined,
        (error: unknown) => error as { code?: string; details?: Array<{ path: string }> },
      );
      if (takes(value, rules)) {
        expect(outcome?.code).not.toBe('INVALID_REQUEST');
        return;
      }
      expect(outcome?.code).toBe('INVALID_REQUEST');
      expect(outcome?.details?.length).toBeGreaterThan(0);
      for (const detail of outcome?.details ?? []) expect(detail.path).toMatch(/^\/options(\/|$)/);
      expect(sent()).toBe(before);
    }),
    { numRuns: 150 },
  );
}
