import { describe, expect, it } from 'vitest';
import { findJsonLimitProblem, JSON_BODY_LIMITS } from '../../engine/hosted/index.js';

const join = (count: number, make: (i: number) => string) => Array.from({ length: count }, (_, i) => make(i)).join(',');

describe('the JSON body scan', () => {
  it('passes bodies inside every limit, whatever their strings hold', () => {
    const strings = JSON.stringify({ a: '[[[[{{{{', 'b"}': ['\\"]]]', 'x,y,z'], c: { d: [1, [2, { e: null }]] } });
    expect(findJsonLimitProblem(strings)).toBeUndefined();
    expect(findJsonLimitProblem(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeUndefined();
    expect(findJsonLimitProblem(`{${join(1000, (i) => `"k${i}":${i}`)}}`)).toBeUndefined();
    expect(findJsonLimitProblem(`[${join(10_000, () => '0')}]`)).toBeUndefined();
  });

  it('names the limit and the JSON pointer where it was passed', () => {
    expect(findJsonLimitProblem(`{"a":{"b/c":[0,${'['.repeat(70)}`)).toEqual({ path: `/a/b~1c/1${'/0'.repeat(61)}`, message: 'nests deeper than 64 levels' });
    expect(findJsonLimitProblem(`{"params":{${join(1001, (i) => `"p${i}":1`)}}}`)).toEqual({ path: '/params', message: 'has more than 1000 members' });
    expect(findJsonLimitProblem(`{"list":["x",${join(10_000, () => '"y"')}]}`)).toEqual({ path: '/list', message: 'has more than 10000 items' });
    expect(findJsonLimitProblem(`[${join(10, () => `[${join(5001, () => '0')}]`)}]`)).toEqual({
      path: '/9/4981',
      message: 'is where the body passes 50000 values',
    });
  });

  it('reads a key only up to 200 characters to name it', () => {
    const key = 'k'.repeat(100_000);
    const problem = findJsonLimitProblem(`{"${key}":${'['.repeat(100)}`);
    expect(problem?.path.length).toBeLessThan(200 + 2 * JSON_BODY_LIMITS.maxDepth);
    expect(problem?.path.startsWith(`/${'k'.repeat(199)}/0`)).toBe(true);
  });
});
