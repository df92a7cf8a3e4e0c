import { describe, expect, it } from 'vitest';
import { Router } from './router';

describe('Router', () => {
  it('registers, resolves, replaces and removes request handlers', () => {
    const router = new Router();
    const first = () => 1;
    const second = () => 2;
    router.setRequestHandler('a', first);
    expect(router.hasRequestHandler('a')).toBe(true);
    expect(router.getRequestHandler('a')).toBe(first);
    expect(router.resolveRequestHandler('a')).toBe(first);
    router.setRequestHandler('a', second);
    expect(router.getRequestHandler('a')).toBe(second);
    expect(router.removeRequestHandler('a')).toBe(true);
    expect(router.removeRequestHandler('a')).toBe(false);
    expect(router.resolveRequestHandler('a')).toBeUndefined();
  });

  it('falls back only when no exact handler exists', () => {
    const router = new Router();
    const exact = () => 'exact';
    const fallback = () => 'fallback';
    router.setRequestHandler('known', exact);
    router.fallbackRequestHandler = fallback;
    expect(router.resolveRequestHandler('known')).toBe(exact);
    expect(router.resolveRequestHandler('other')).toBe(fallback);
    expect(router.hasRequestHandler('other')).toBe(false);
    expect(router.getRequestHandler('other')).toBeUndefined();
  });

  it('keeps notification handlers separate from request handlers', () => {
    const router = new Router();
    const note = () => {};
    const fallback = () => {};
    router.setRequestHandler('same', () => 1);
    router.setNotificationHandler('same', note);
    router.fallbackNotificationHandler = fallback;
    expect(router.getNotificationHandler('same')).toBe(note);
    expect(router.resolveNotificationHandler('missing')).toBe(fallback);
    expect(router.removeNotificationHandler('same')).toBe(true);
    expect(router.hasNotificationHandler('same')).toBe(false);
    expect(router.hasRequestHandler('same')).toBe(true);
  });

  it('lists registered methods in registration order', () => {
    const router = new Router();
    router.setRequestHandler('b', () => 0);
    router.setRequestHandler('a', () => 0);
    router.setNotificationHandler('n', () => {});
    expect(router.requestMethods()).toEqual(['b', 'a']);
    expect(router.notificationMethods()).toEqual(['n']);
  });
});
