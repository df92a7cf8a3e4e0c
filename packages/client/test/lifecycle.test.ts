import {
  ConnectionClosedError,
  type JsonRpcPeer,
  RequestAbortedError,
  type RequestContext,
  RequestTimeoutError,
} from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { McpClientError } from '../src/index';
import { complete, harness, legacyServer, metaOf, modernServer, until } from './helpers/harness';

type Era = 'legacy' | 'modern';

function slowToolServer(
  era: Era,
  behaviour: (ctx: RequestContext, token: string | number | undefined) => Promise<unknown>,
) {
  return (peer: JsonRpcPeer) => {
    if (era === 'modern') modernServer(peer, { tools: {} });
    else legacyServer(peer, { tools: {} });
    peer.setRequestHandler('tools/call', async (params, ctx) => {
      const token = (params as { _meta?: { progressToken?: string | number } })._meta?.progressToken;
      await behaviour(ctx, token);
      const result = { content: [{ type: 'text', text: 'done' }] };
      return era === 'modern' ? complete(result) : result;
    });
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function progressEvery(ctx: RequestContext, token: string | number | undefined, stepMs: number, steps: number) {
  for (let step = 1; step <= steps; step++) {
    await sleep(stepMs);
    if (ctx.signal.aborted) return;
    if (token !== undefined) {
      await ctx.notify('notifications/progress', {
        progressToken: token,
        progress: step,
        total: steps,
        message: `step ${step}`,
      });
    }
  }
}

describe.each(['legacy', 'modern'] as const)('progress, timeouts and cancellation (%s)', (era) => {
  it('delivers progress to onProgress (the token rides in _meta next to the envelope)', async () => {
    const h = await harness({
      server: slowToolServer(era, (ctx, token) => progressEvery(ctx, token, 1, 3)),
      connect: { era },
    });
    const updates: unknown[] = [];
    await h.client.callTool({ name: 'slow' }, { onProgress: (update) => updates.push(update) });
    expect(updates).toEqual([
      { progress: 1, total: 3, message: 'step 1' },
      { progress: 2, total: 3, message: 'step 2' },
      { progress: 3, total: 3, message: 'step 3' },
    ]);
    const meta = metaOf(h.requests('tools/call')[0]!)!;
    expect(meta.progressToken).toBe(h.requests('tools/call')[0]!.id);
    if (era === 'modern') expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    await h.client.close();
    h.checked.assertClean();
  });

  it('a call without options gets the client’s requestTimeoutMs, every time', async () => {
    const h = await harness({
      server: slowToolServer(era, () => sleep(300)),
      connect: { era },
      client: { requestTimeoutMs: 60 },
    });
    for (let call = 0; call < 2; call++) {
      const began = Date.now();
      const failure = await h.client.callTool({ name: 'slow' }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RequestTimeoutError);
      expect((failure as RequestTimeoutError).data.maxTotal).toBe(false);
      expect(Date.now() - began).toBeLessThan(250);
    }
    await h.client.close();
  });

  it('progress resets the idle timeout; without progress it times out; maxTotalTimeoutMs caps it', async () => {
    const h = await harness({
      server: slowToolServer(era, (ctx, token) => progressEvery(ctx, token, 25, 8)),
      connect: { era },
    });
    // 8 steps of 25 ms = 200 ms, idle timeout 80 ms: only progress keeps it alive.
    await expect(h.client.callTool({ name: 'slow' }, { timeoutMs: 80, onProgress: () => {} })).resolves.toBeDefined();
    const idle = await h.client.callTool({ name: 'slow' }, { timeoutMs: 80 }).catch((e: unknown) => e);
    expect(idle).toBeInstanceOf(RequestTimeoutError);
    expect((idle as RequestTimeoutError).data.maxTotal).toBe(false);
    const capped = await h.client
      .callTool({ name: 'slow' }, { timeoutMs: 80, maxTotalTimeoutMs: 110, onProgress: () => {} })
      .catch((e: unknown) => e);
    expect(capped).toBeInstanceOf(RequestTimeoutError);
    expect((capped as RequestTimeoutError).data.maxTotal).toBe(true);
    const noReset = await h.client
      .callTool({ name: 'slow' }, { timeoutMs: 80, resetTimeoutOnProgress: false, onProgress: () => {} })
      .catch((e: unknown) => e);
    expect(noReset).toBeInstanceOf(RequestTimeoutError);
    // Each timed-out request was cancelled.
    await until(() => h.notifications('notifications/cancelled').length === 3, 'three cancellations');
    await h.client.close();
    h.checked.assertClean();
  });

  it('aborting the signal rejects, sends notifications/cancelled and aborts the server handler', async () => {
    let serverSignal: AbortSignal | undefined;
    const h = await harness({
      server: slowToolServer(era, async (ctx) => {
        serverSignal = ctx.signal;
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      }),
      connect: { era },
    });
    const controller = new AbortController();
    const pending = h.client.callTool({ name: 'slow' }, { signal: controller.signal });
    await until(() => serverSignal !== undefined, 'the handler to start');
    controller.abort('user pressed stop');
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestAbortedError);
    await until(() => serverSignal!.aborted, 'the server to see the cancellation');
    const cancelled = h.notifications('notifications/cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.params).toEqual({ requestId: h.requests('tools/call')[0]!.id, reason: 'user pressed stop' });
    await h.client.close();
    h.checked.assertClean();
  });
});

describe('cancellation rules', () => {
  it('never cancels initialize, even when connecting is aborted', async () => {
    const h = await harness({
      server: (peer) => {
        peer.setRequestHandler('initialize', () => new Promise(() => {}));
      },
      connect: { era: 'legacy' },
      manualConnect: true,
    });
    const controller = new AbortController();
    const connecting = h.client.connect(h.transport, { era: 'legacy', signal: controller.signal });
    await until(() => h.requests('initialize').length === 1, 'initialize');
    controller.abort();
    await expect(connecting).rejects.toBeInstanceOf(RequestAbortedError);
    expect(h.notifications('notifications/cancelled')).toEqual([]);
    expect(h.client.connected).toBe(false);
  });

  it('modern: no notifications/cancelled when the transport cancels by closing streams', async () => {
    let serverSignal: AbortSignal | undefined;
    const h = await harness({
      server: slowToolServer('modern', async (ctx) => {
        serverSignal = ctx.signal;
        await sleep(50);
      }),
      cancelsBySignal: true,
    });
    const controller = new AbortController();
    const pending = h.client.callTool({ name: 'slow' }, { signal: controller.signal });
    await until(() => serverSignal !== undefined, 'the handler to start');
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    await sleep(10);
    expect(h.notifications('notifications/cancelled')).toEqual([]);
    expect(h.cancelledBySignal).toEqual([h.requests('tools/call')[0]!.id]);
    await h.client.close();
  });

  it('an input_required loop stops when the signal aborts, and handlers see the abort', async () => {
    let handlerSignal: AbortSignal | undefined;
    const h = await harness({
      server: (peer) => {
        modernServer(peer, { tools: {} });
        peer.setRequestHandler('tools/call', () => ({
          resultType: 'input_required',
          inputRequests: { ask: { method: 'roots/list', params: {} } },
        }));
      },
      client: {
        handlers: {
          roots: (_params, context) =>
            new Promise((_resolve, reject) => {
              handlerSignal = context.signal;
              context.signal.addEventListener('abort', () => reject(context.signal.reason));
            }),
        },
      },
    });
    const controller = new AbortController();
    const pending = h.client.callTool({ name: 'x' }, { signal: controller.signal });
    await until(() => handlerSignal !== undefined, 'the roots handler');
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    expect(h.requests('tools/call')).toHaveLength(1);
    await h.client.close();
  });
});

describe('close', () => {
  it('rejects pending requests, refuses new ones, and is idempotent', async () => {
    const h = await harness({ server: slowToolServer('modern', () => new Promise(() => {})) });
    const pending = h.client.callTool({ name: 'slow' });
    await until(() => h.requests('tools/call').length === 1, 'the call');
    await h.client.close();
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(h.client.connected).toBe(false);
    expect(h.client.era).toBeUndefined();
    const error = await h.client.listTools().catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_NOT_CONNECTED');
    await h.client.close();
  });

  it('notices the server side closing, and can connect again afterwards', async () => {
    const h = await harness({ server: (peer) => modernServer(peer, { tools: {} }) });
    await h.server.close();
    await until(() => !h.client.connected, 'the client to notice');
    const again = await harness({ server: (peer) => legacyServer(peer, {}), manualConnect: true });
    await h.client.connect(again.transport);
    expect(h.client.era).toBe('legacy');
    await h.client.close();
  });
});
