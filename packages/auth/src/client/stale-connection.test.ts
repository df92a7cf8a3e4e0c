import { describe, expect, it } from 'vitest';
import { isStaleConnectionError, retryStaleConnections } from './stale-connection';

const reset = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });

function scripted(...outcomes: (Response | Error)[]) {
  const calls: { input: RequestInfo | URL; init?: RequestInit }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ input, init });
    const next = outcomes.shift();
    if (next === undefined) throw new Error('no more outcomes');
    if (next instanceof Error) throw next;
    return next;
  }) as typeof fetch;
  return { fetchImpl, calls };
}

describe('retryStaleConnections', () => {
  it('sends a request once more when its connection was reset under it', async () => {
    const { fetchImpl, calls } = scripted(reset(), new Response('ok'));
    const response = await retryStaleConnections(fetchImpl)('http://as.test/token', {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(await response.text()).toBe('ok');
    expect(calls).toHaveLength(2);
  });

  it('gives up after one more attempt', async () => {
    const { fetchImpl, calls } = scripted(reset(), reset());
    await expect(
      retryStaleConnections(fetchImpl)('http://as.test/token', { method: 'POST', body: 'x' }),
    ).rejects.toThrow('fetch failed');
    expect(calls).toHaveLength(2);
  });

  it('does not retry other failures, an aborted request, or a body it cannot send again', async () => {
    const refused = scripted(
      new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }),
    );
    await expect(retryStaleConnections(refused.fetchImpl)('http://as.test/')).rejects.toThrow();
    expect(refused.calls).toHaveLength(1);

    const controller = new AbortController();
    controller.abort();
    const aborted = scripted(reset());
    await expect(
      retryStaleConnections(aborted.fetchImpl)('http://as.test/', { signal: controller.signal }),
    ).rejects.toThrow();
    expect(aborted.calls).toHaveLength(1);

    const streamed = scripted(reset());
    const body = new ReadableStream({ start: (c) => c.close() });
    await expect(
      retryStaleConnections(streamed.fetchImpl)('http://as.test/', {
        method: 'POST',
        body,
        duplex: 'half',
      } as RequestInit),
    ).rejects.toThrow();
    expect(streamed.calls).toHaveLength(1);
  });

  it('recognises undici socket errors and Node messages', () => {
    expect(isStaleConnectionError(reset())).toBe(true);
    expect(
      isStaleConnectionError(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
        }),
      ),
    ).toBe(true);
    expect(isStaleConnectionError(new Error('socket hang up'))).toBe(true);
    expect(isStaleConnectionError(new Error('getaddrinfo ENOTFOUND'))).toBe(false);
  });
});
