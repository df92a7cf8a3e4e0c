import { describe, expect, it } from 'vitest';
import { nodeExchange } from '../../src/client/node-exchange';
import { abortSignalOf, Canceller } from '../../src/client/request-abort';
import { nodeHttpModules } from '../../src/client/runtime-exchange';
import { startServer } from './http-server';

describe('Canceller: the per-request abort switch of the client transports', () => {
  it('runs its listeners once, in order, with an AbortError reason unless given one', () => {
    const cancel = new Canceller();
    const seen: string[] = [];
    const second = () => seen.push('second');
    cancel.addEventListener('abort', () => seen.push(`first ${cancel.aborted}`));
    cancel.addEventListener('abort', second);
    cancel.addEventListener('abort', () => seen.push('third'));
    cancel.removeEventListener('abort', second);
    cancel.removeEventListener('abort', () => {}); // not added: nothing happens
    expect(cancel.aborted).toBe(false);
    expect(cancel.reason).toBeUndefined();
    cancel.abort();
    cancel.abort(new Error('later'));
    expect(seen).toEqual(['first true', 'third']);
    expect(cancel.reason).toMatchObject({ name: 'AbortError' });
    expect(cancel.reason).toBeInstanceOf(Error);
    // As with EventTarget, a listener added after the event never runs.
    cancel.addEventListener('abort', () => seen.push('late'));
    expect(seen).toHaveLength(2);

    const withReason = new Canceller();
    const reason = new Error('closed');
    withReason.abort(reason);
    expect(withReason.reason).toBe(reason);
  });

  it('gives fetch a linked AbortSignal, and passes a real AbortSignal through as it is', () => {
    const real = new AbortController().signal;
    expect(abortSignalOf(real)).toBe(real);

    const cancel = new Canceller();
    const signal = abortSignalOf(cancel);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal.aborted).toBe(false);
    const reason = new Error('cancelled');
    cancel.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);

    const already = new Canceller();
    already.abort();
    expect(abortSignalOf(already).aborted).toBe(true);
    expect(abortSignalOf(already).reason).toMatchObject({ name: 'AbortError' });
  });

  it('aborts a request on the node path: before the answer, and while its body is read', async () => {
    const server = await startServer((req, res) => {
      if (req.url === '/mcp?hang') return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    });
    try {
      const modules = nodeHttpModules();
      if (modules === undefined) throw new Error('the node path is not available in this process');
      const send = nodeExchange(modules);
      const pending = new Canceller();
      const request = send(new URL('?hang', server.url), { method: 'POST', headers: {}, body: '{}', signal: pending });
      setTimeout(() => pending.abort(), 20);
      await expect(request).rejects.toMatchObject({ name: 'AbortError' });

      const reading = new Canceller();
      const answer = await send(server.url, { method: 'GET', headers: {}, signal: reading });
      const pieces: string[] = [];
      const streamed = answer.stream((piece) => {
        pieces.push(piece);
        reading.abort();
      });
      await expect(streamed).rejects.toBeInstanceOf(Error); // the destroyed response's error, as with a signal
      expect(pieces).toEqual(['data: 1\n\n']);
    } finally {
      await server.close();
    }
  });
});
