// Issue 25: pinned to 2024-11-05 or 2025-03-26, `initialize` declared `elicitation` (a 2025-06-18 capability), and a
// server that then sent `elicitation/create` was answered -32603 "does not exist in 2025-03-26" instead of -32601.
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { harness, legacyServer } from './helpers/harness';

const HANDLERS = {
  elicitation: () => ({ action: 'accept' as const, content: {} }),
  sampling: () => ({ role: 'assistant' as const, content: { type: 'text' as const, text: 'hi' }, model: 'm' }),
  roots: () => ({ roots: [] }),
};

describe('a client pinned to an old revision declares only what that revision has', () => {
  it.each([
    ['2024-11-05', { sampling: {}, roots: { listChanged: true } }],
    ['2025-03-26', { sampling: {}, roots: { listChanged: true } }],
    ['2025-06-18', { sampling: {}, roots: { listChanged: true }, elicitation: {} }],
  ])('%s', async (version, declared) => {
    const h = await harness({
      server: (peer) => legacyServer(peer, {}, version),
      client: {
        capabilities: { sampling: {}, roots: { listChanged: true }, elicitation: {} },
        handlers: HANDLERS,
      },
      connect: { protocolVersion: version },
    });
    expect((h.requests('initialize')[0]!.params as { capabilities: unknown }).capabilities).toEqual(declared);
    await h.client.close();
  });

  it('answers a request its negotiated revision does not have with -32601, not -32603', async () => {
    const h = await harness({
      server: (peer) => legacyServer(peer, {}, '2025-03-26'),
      client: { capabilities: { elicitation: {} }, handlers: HANDLERS },
      connect: { protocolVersion: '2025-03-26' },
    });
    const asked = h.server.request('elicitation/create', {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: {} },
    });
    const error = await asked.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(JsonRpcError.is(error) && error.code).toBe(-32601);
    await h.client.close();
  });
});
