import { describe, expect, it } from 'vitest';
import { JsonRpcError } from './errors';
import { MiddlewareChain, MiddlewareResultError } from './middleware';

interface Ctx {
  log: string[];
}

describe('MiddlewareChain', () => {
  it('runs the terminal directly when empty', async () => {
    const chain = new MiddlewareChain<Ctx, string>();
    expect(chain.size).toBe(0);
    expect(await chain.run({ log: [] }, () => 'done')).toBe('done');
  });

  it('runs layers as an onion, first added outermost', async () => {
    const chain = new MiddlewareChain<Ctx, string>();
    chain.add(async (ctx, next) => {
      ctx.log.push('a>');
      const result = await next();
      ctx.log.push('<a');
      return `a(${result})`;
    });
    chain.add(async (ctx, next) => {
      ctx.log.push('b>');
      const result = await next();
      ctx.log.push('<b');
      return `b(${result})`;
    });
    const ctx = { log: [] as string[] };
    expect(
      await chain.run(ctx, (c) => {
        c.log.push('handler');
        return 'x';
      }),
    ).toBe('a(b(x))');
    expect(ctx.log).toEqual(['a>', 'b>', 'handler', '<b', '<a']);
  });

  it('short-circuits: a layer that returns without next answers, and the handler never runs', async () => {
    const chain = new MiddlewareChain<Ctx, string>();
    let ran = false;
    chain.add(() => 'cached');
    expect(
      await chain.run({ log: [] }, () => {
        ran = true;
        return 'fresh';
      }),
    ).toBe('cached');
    expect(ran).toBe(false);
  });

  it("passes next()'s result on when a layer awaits next and returns nothing", async () => {
    const chain = new MiddlewareChain<Ctx, string>();
    chain.add(async (_ctx, next) => {
      await next();
    });
    expect(await chain.run({ log: [] }, () => 'kept')).toBe('kept');
  });

  it('lets a layer call next more than once (retries)', async () => {
    const chain = new MiddlewareChain<Ctx, string>();
    chain.add(async (_ctx, next) => {
      try {
        return await next();
      } catch {
        return next();
      }
    });
    let attempts = 0;
    const result = await chain.run({ log: [] }, () => {
      attempts++;
      if (attempts === 1) throw new Error('transient');
      return 'second time';
    });
    expect(result).toBe('second time');
    expect(attempts).toBe(2);
  });

  it('a layer that neither calls next nor returns is an error, not a hang', async () => {
    const chain = new MiddlewareChain<Ctx, string>({ ownError: (error) => error });
    chain.add(() => undefined);
    const error = await chain.run({ log: [] }, () => 'never').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MiddlewareResultError);
    expect((error as Error).message).toMatch(/Middleware #1 neither called next\(\) nor returned a result/);
  });

  it('with requireResult false, a layer that stops the chain resolves to undefined', async () => {
    const chain = new MiddlewareChain<Ctx, string>({ requireResult: false });
    chain.add(() => undefined);
    expect(await chain.run({ log: [] }, () => 'never')).toBeUndefined();
  });

  it("maps a layer's own errors, but never an error that came out of next", async () => {
    const mapped: unknown[] = [];
    const chain = new MiddlewareChain<Ctx, string>({
      ownError: (error) => {
        mapped.push(error);
        return new Error('mapped');
      },
    });
    chain.add(async (_ctx, next) => next());
    const handlerError = new Error('from the handler');
    await expect(
      chain.run({ log: [] }, () => {
        throw handlerError;
      }),
    ).rejects.toBe(handlerError);
    expect(mapped).toEqual([]);

    const broken = new MiddlewareChain<Ctx, string>({
      ownError: (error) => {
        mapped.push(error);
        return new Error('mapped');
      },
    });
    broken.add(() => {
      throw new Error('secret internals');
    });
    await expect(broken.run({ log: [] }, () => 'x')).rejects.toThrow('mapped');
    expect((mapped[0] as Error).message).toBe('secret internals');
  });

  it('by default keeps JsonRpcErrors a layer throws and hides anything else behind -32603', async () => {
    const chain = new MiddlewareChain<Ctx, string>();
    chain.add(() => {
      throw new JsonRpcError(-32042, 'Slow down', { retryAfterMs: 100 });
    });
    await expect(chain.run({ log: [] }, () => 'x')).rejects.toMatchObject({ code: -32042, message: 'Slow down' });
    const hidden = new MiddlewareChain<Ctx, string>();
    hidden.add(async () => {
      throw new TypeError('db password is hunter2');
    });
    const error = await hidden.run({ log: [] }, () => 'x').catch((caught: unknown) => caught);
    expect(JsonRpcError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: -32603, message: 'Internal error' });
  });

  it('applies add and remove to runs that start afterwards, not to one already running', async () => {
    const chain = new MiddlewareChain<Ctx, string>();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const running = chain.run({ log: [] }, async () => {
      await gate;
      return 'plain';
    });
    const remove = chain.add(async (_ctx, next) => `wrapped ${await next()}`);
    release();
    expect(await running).toBe('plain');
    expect(await chain.run({ log: [] }, () => 'later')).toBe('wrapped later');
    remove();
    expect(await chain.run({ log: [] }, () => 'after')).toBe('after');
  });

  it('refuses something that is not a function', () => {
    const chain = new MiddlewareChain<Ctx, string>();
    expect(() => chain.add({} as never)).toThrow(/must be a function/);
  });
});
