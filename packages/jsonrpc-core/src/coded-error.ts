// Brands are registered symbols (Symbol.for), so two copies of a package in one program (two bundles, a CJS and an ESM
// build, a vendored copy) still recognise each other's errors: a brand is a property of the prototype, read by key.

/** True when `value` carries `brand` (on itself or its prototype chain). */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as { [key: symbol]: unknown })[brand] === true;
}

/** Marks every instance of a class: non-enumerable, so it never shows in logs, spreads or JSON. */
export function brandPrototype(prototype: object, brand: symbol): void {
  Object.defineProperty(prototype, brand, { value: true });
}

// The classes `defineCodedError` returns (and internal layers built on them) are never exported: their direct
// subclasses are. Such a public class checks the brand, so it recognises instances from another copy of its package;
// classes derived from it check the prototype chain, so `instanceof` and `is()` never claim more than they know.
const FACTORY_CLASSES = new WeakSet<object>();

/** Registers an internal layer over a `defineCodedError` class, so its direct subclasses count as the public class. */
export function markErrorFactoryClass(ctor: object): void {
  FACTORY_CLASSES.add(ctor);
}

function recognises(receiver: object, value: unknown, brand: symbol): boolean {
  return FACTORY_CLASSES.has(Object.getPrototypeOf(receiver))
    ? hasBrand(value, brand)
    : Function.prototype[Symbol.hasInstance].call(receiver, value);
}

/**
 * The tail of a coded error's constructor: `data`, then `ErrorOptions` (`cause`). `data` may be left out when an empty
 * object is valid data; it is then `{}`.
 */
export type CodedErrorArgs<Data> =
  Record<never, never> extends Data ? [data?: Data, options?: ErrorOptions] : [data: Data, options?: ErrorOptions];

/** An instance of a class made by {@link defineCodedError}. */
export interface CodedError<Code extends string = string, Data = Record<string, unknown>> extends Error {
  /** What went wrong, stable across releases: branch on it, not on the message. */
  readonly code: Code;
  /** What helps to debug (URLs, limits, the offending value). */
  readonly data: Data;
}

/** The abstract base class {@link defineCodedError} returns. */
export type CodedErrorClass<Code extends string, Data> = (abstract new (
  code: Code,
  message: string,
  ...rest: CodedErrorArgs<Data>
) => CodedError<Code, Data>) & {
  /**
   * True for an instance of the class `is` is called on. On the class that extends the base directly, this reads the
   * brand, so an instance from another copy of the package counts; on classes derived from it, the prototype chain.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any constructor signature; only the instance type matters
  is<T>(this: abstract new (...args: any[]) => T, value: unknown): value is T;
  /** `instanceof` follows the same rule as `is()`. */
  [Symbol.hasInstance](value: unknown): boolean;
};

/**
 * Defines the base of an error class with a string `code`, typed `data`, and a brand (`Symbol.for(brandKey)`), so that
 * `is()` and `instanceof` on the class extending it recognise instances from another copy of the package (two bundles,
 * CJS next to ESM). Classes derived further keep ordinary prototype-chain `instanceof`. Use one brand key per public
 * class, named after the package and the class; it is a contract: keep it across releases.
 *
 * The constructor takes `(code, message, data, options)`; `data` may be left out when `{}` is valid data. Declare a
 * constructor of your own to fix the code or take other arguments.
 *
 * @example
 * ```ts
 * export type StoreErrorCode = 'ERR_STORE_FULL' | 'ERR_STORE_CLOSED';
 *
 * export class StoreError extends defineCodedError<StoreErrorCode, { limit?: number }>(
 *   'StoreError',
 *   '@acme/store/StoreError',
 * ) {}
 *
 * try {
 *   throw new StoreError('ERR_STORE_FULL', 'The store holds 100 entries at most; delete some first', { limit: 100 });
 * } catch (error) {
 *   if (StoreError.is(error) && error.code === 'ERR_STORE_FULL') console.log(error.data.limit); // 100
 * }
 * ```
 */
export function defineCodedError<Code extends string, Data = Record<string, unknown>>(
  name: string,
  brandKey: string,
): CodedErrorClass<Code, Data> {
  const brand = Symbol.for(brandKey);
  abstract class CodedErrorBase extends Error {
    override name = name;
    readonly code: Code;
    readonly data: Data;

    constructor(code: Code, message: string, ...[data, options]: CodedErrorArgs<Data>) {
      super(message, options);
      this.code = code;
      // Only an optional `data` can be missing, and that is when `{}` is valid Data.
      this.data = data === undefined ? ({} as Data) : data;
    }

    // biome-ignore lint/suspicious/noExplicitAny: any constructor signature; only the instance type matters
    static is<T>(this: abstract new (...args: any[]) => T, value: unknown): value is T {
      // biome-ignore lint/complexity/noThisInStatic: `this` is the class `is` was called on
      return recognises(this, value, brand);
    }

    static override [Symbol.hasInstance](value: unknown): boolean {
      // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` was used with
      return recognises(this, value, brand);
    }
  }
  brandPrototype(CodedErrorBase.prototype, brand);
  markErrorFactoryClass(CodedErrorBase);
  return CodedErrorBase;
}
