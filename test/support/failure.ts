import { expect } from 'vitest';
import { EngineError } from '../../engine/index.js';

/** The typed error a call failed with; the test fails if it succeeded or threw anything else. */
export async function failure(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}
