import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineCodedError } from './coded-error';

type StoreErrorCode = 'ERR_STORE_FULL' | 'ERR_STORE_CLOSED';
const BRAND_KEY = '@mcpkit/test/StoreError';

// Two copies of one package: same class source, same brand key, two distinct class objects (as a CJS and an ESM
// build of one package would have).
function loadCopy() {
  class StoreError extends defineCodedError<StoreErrorCode>('StoreError', BRAND_KEY) {}
  class StoreFullError extends StoreError {
    override name = 'StoreFullError';
    readonly limit: number;
    constructor(limit: number) {
      super('ERR_STORE_FULL', `The store holds ${limit} entries at most; delete some first`, { limit });
      this.limit = limit;
    }
  }
  return { StoreError, StoreFullError };
}

const copyA = loadCopy();
const copyB = loadCopy();

describe('defineCodedError', () => {
  it('carries code, message, data, name and cause', () => {
    const cause = new Error('disk quota');
    const error = new copyA.StoreError(
      'ERR_STORE_CLOSED',
      'The store is closed; open it again',
      { path: '/s' },
      { cause },
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('ERR_STORE_CLOSED');
    expect(error.message).toBe('The store is closed; open it again');
    expect(error.data).toEqual({ path: '/s' });
    expect(error.name).toBe('StoreError');
    expect(error.cause).toBe(cause);
    expect(String(error)).toBe('StoreError: The store is closed; open it again');
    expect(error.stack).toContain('StoreError');
  });

  it('defaults data to {} when {} is valid data, and leaves cause unset without options', () => {
    const error = new copyA.StoreError('ERR_STORE_FULL', 'full');
    expect(error.data).toEqual({});
    expect('cause' in error).toBe(false);
  });

  it('requires data when {} is not valid data', () => {
    class LimitError extends defineCodedError<'ERR_LIMIT', { limit: number }>('LimitError', '@mcpkit/test/Limit') {}
    // @ts-expect-error: `limit` is required, so `data` is
    const missing = new LimitError('ERR_LIMIT', 'over the limit');
    expect(missing.data).toEqual({});
    expect(new LimitError('ERR_LIMIT', 'over the limit', { limit: 3 }).data.limit).toBe(3);
  });

  it('recognises instances from another copy through the brand, with is() and instanceof', () => {
    const fromB = new copyB.StoreError('ERR_STORE_FULL', 'full');
    expect(fromB instanceof copyB.StoreError).toBe(true);
    expect(copyA.StoreError.is(fromB)).toBe(true);
    expect(fromB instanceof copyA.StoreError).toBe(true);
    // A subclass instance from the other copy still carries the family's brand.
    expect(copyA.StoreError.is(new copyB.StoreFullError(3))).toBe(true);
  });

  it('keeps prototype-chain checks for derived classes, so they never claim a foreign or a parent instance', () => {
    const full = new copyA.StoreFullError(3);
    expect(full instanceof copyA.StoreFullError).toBe(true);
    expect(full instanceof copyA.StoreError).toBe(true);
    expect(full.code).toBe('ERR_STORE_FULL');
    expect(full.limit).toBe(3);
    expect(full.name).toBe('StoreFullError');
    const parent = new copyA.StoreError('ERR_STORE_FULL', 'full');
    expect(parent instanceof copyA.StoreFullError).toBe(false);
    expect(copyA.StoreFullError.is(parent)).toBe(false);
    expect(copyA.StoreFullError.is(new copyB.StoreFullError(3))).toBe(false);
  });

  it('rejects values without the brand, including another family and look-alikes', () => {
    class OtherError extends defineCodedError<StoreErrorCode>('StoreError', '@mcpkit/test/OtherError') {}
    const other = new OtherError('ERR_STORE_FULL', 'full');
    expect(copyA.StoreError.is(other)).toBe(false);
    expect(other instanceof copyA.StoreError).toBe(false);
    for (const value of [undefined, null, 'ERR_STORE_FULL', 42, new Error('x'), { code: 'ERR_STORE_FULL', data: {} }]) {
      expect(copyA.StoreError.is(value)).toBe(false);
      expect(value instanceof copyA.StoreError).toBe(false);
    }
    // What a foreign copy's prototype looks like: the brand, by its registered key, is all it takes.
    const foreign = Object.create(Error.prototype, { [Symbol.for(BRAND_KEY)]: { value: true } });
    expect(copyA.StoreError.is(foreign)).toBe(true);
  });

  it('keeps the brand off enumerable and own properties', () => {
    const error = new copyA.StoreError('ERR_STORE_FULL', 'full', { limit: 1 });
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(Object.keys(error).sort()).toEqual(['code', 'data', 'name']);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'StoreError',
      code: 'ERR_STORE_FULL',
      data: { limit: 1 },
    });
  });

  it('narrows with is() to the class it is called on', () => {
    const value: unknown = new copyA.StoreFullError(2);
    if (copyA.StoreError.is(value)) {
      expectTypeOf(value).toEqualTypeOf<InstanceType<typeof copyA.StoreError>>();
      expectTypeOf(value.code).toEqualTypeOf<StoreErrorCode>();
      expectTypeOf(value.data).toEqualTypeOf<Record<string, unknown>>();
    }
    if (copyA.StoreFullError.is(value)) expectTypeOf(value.limit).toEqualTypeOf<number>();
    expect(copyA.StoreFullError.is(value)).toBe(true);
  });
});
