import type { Transport } from '@mcpkit/jsonrpc-core';
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { unsupportedProtocolVersionError } from '@mcpkit/protocol';
import { describe, expect, it } from 'vitest';
import { Client, McpClientError } from '../src/index';
import { cacheable, harness, legacyServer, MODERN, metaOf, modernServer, SERVER_INFO } from './helpers/harness';

describe('era detection (auto)', () => {
  it('connects to a modern server with server/discover and never sends initialize', async () => {
    const h = await harness({ server: (peer) => modernServer(peer, { tools: {} }) });
    expect(h.client.era).toBe('modern');
    expect(h.client.protocolVersion).toBe(MODERN);
    expect(h.client.serverCapabilities).toEqual({ tools: {} });
    expect(h.client.serverInfo).toEqual(SERVER_INFO);
    expect(h.client.instructions).toBe('Be nice.');
    expect(h.requests().map((request) => request.method)).toEqual(['server/discover']);
    expect(metaOf(h.requests()[0]!)).toMatchObject({
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '0.1.0' },
    });
    await h.client.close();
    h.checked.assertClean();
  });

  it.each([
    ['-32601 (no handler)', undefined],
    ['-32602', new JsonRpcError(-32602, 'Invalid params')],
    ['-32603', new JsonRpcError(-32603, 'Internal error')],
    ['-32000', new JsonRpcError(-32000, 'Server not initialized')],
  ])('falls back to initialize when the probe is answered with %s', async (_name, error) => {
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, { tools: {} }, '2025-06-18');
        if (error)
          peer.setRequestHandler('server/discover', () => {
            throw error;
          });
      },
    });
    expect(h.client.era).toBe('legacy');
    expect(h.client.protocolVersion).toBe('2025-06-18');
    expect(h.requests().map((request) => request.method)).toEqual(['server/discover', 'initialize']);
    expect(h.requests('initialize')[0]!.params).toEqual({
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'test-client', version: '0.1.0' },
    });
    expect(h.notifications().map((n) => n.method)).toEqual(['notifications/initialized']);
    await h.client.close();
    h.checked.assertClean();
  });

  it('falls back to initialize when a server that has spoken leaves the probe unanswered for probeTimeoutMs, without cancelling it', async () => {
    const started = Date.now();
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        // Alive (it says something) but silent about server/discover.
        peer.setRequestHandler('server/discover', () => {
          void peer.notify('notifications/message', { level: 'info', data: 'starting' });
          return new Promise(() => {});
        });
      },
      connect: { probeTimeoutMs: 50 },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(h.client.era).toBe('legacy');
    expect(h.notifications('notifications/cancelled')).toEqual([]);
    await h.client.close();
  });

  it('waits past probeTimeoutMs for a server that has not said anything yet (a slow start keeps the era)', async () => {
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        modernServer(peer, { tools: {} });
        const answer = peer.router.resolveRequestHandler('server/discover')!;
        // Starting up: nothing is read or written for 300 ms, six times the probe timeout.
        peer.setRequestHandler('server/discover', async (params, ctx) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return answer(params, ctx);
        });
      },
      connect: { probeTimeoutMs: 50 },
    });
    expect(h.client.era).toBe('modern');
    expect(h.requests().map((request) => request.method)).toEqual(['server/discover']);
    await h.client.close();
    h.checked.assertClean();
  });

  it('gives a server that never speaks the connect timeout (timeoutMs), then falls back to initialize', async () => {
    const started = Date.now();
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        peer.setRequestHandler('server/discover', () => new Promise(() => {}));
      },
      connect: { probeTimeoutMs: 20, timeoutMs: 250 },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(h.client.era).toBe('legacy');
    expect(h.notifications('notifications/cancelled')).toEqual([]);
    await h.client.close();
    h.checked.assertClean();
  });

  it('falls back when the probe is answered with something that is not a DiscoverResult', async () => {
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        peer.setRequestHandler('server/discover', () => ({}));
      },
    });
    expect(h.client.era).toBe('legacy');
    await h.client.close();
  });

  it('after -32022 retries server/discover with a mutual version from data.supported and does not fall back', async () => {
    let calls = 0;
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        peer.setRequestHandler('server/discover', () => {
          calls++;
          if (calls === 1) throw unsupportedProtocolVersionError(['2099-01-01', MODERN, '2025-11-25'], MODERN);
          return cacheable({ supportedVersions: [MODERN], capabilities: { prompts: {} } });
        });
      },
    });
    expect(h.client.era).toBe('modern');
    expect(h.client.serverCapabilities).toEqual({ prompts: {} });
    const discovers = h.requests('server/discover');
    expect(discovers).toHaveLength(2);
    expect(discovers[1]!.id).not.toBe(discovers[0]!.id);
    expect(metaOf(discovers[1]!)?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
    expect(h.requests('initialize')).toEqual([]);
    await h.client.close();
    h.checked.assertClean();
  });

  it('fails (without falling back) when -32022 lists no version the client speaks', async () => {
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        peer.setRequestHandler('server/discover', () => {
          throw unsupportedProtocolVersionError(['2099-01-01'], MODERN);
        });
      },
      manualConnect: true,
    });
    const error = await h.client.connect(h.transport).catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_VERSION_NEGOTIATION');
    expect((error as McpClientError).data.supported).toEqual(['2099-01-01']);
    expect(h.requests('initialize')).toEqual([]);
    expect(h.client.connected).toBe(false);
  });

  it('retries -32022 only once', async () => {
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        peer.setRequestHandler('server/discover', () => {
          throw unsupportedProtocolVersionError([MODERN], MODERN);
        });
      },
      manualConnect: true,
    });
    const error = await h.client.connect(h.transport).catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_VERSION_NEGOTIATION');
    expect(h.requests('server/discover')).toHaveLength(2);
    expect(h.requests('initialize')).toEqual([]);
  });

  it('treats other modern errors (-32021, -32020) as modern: the error surfaces, no fallback', async () => {
    for (const code of [-32021, -32020]) {
      const h = await harness({
        server: (peer) => {
          legacyServer(peer, {});
          peer.setRequestHandler('server/discover', () => {
            throw new JsonRpcError(code, 'modern error', code === -32021 ? { requiredCapabilities: {} } : undefined);
          });
        },
        manualConnect: true,
      });
      const error = await h.client.connect(h.transport).catch((caught: unknown) => caught);
      expect(JsonRpcError.is(error) && error.code).toBe(code);
      expect(h.requests('initialize')).toEqual([]);
    }
  });

  it('learns a modern-only server from its -32022 answer to initialize when the probe timed out', async () => {
    let discovers = 0;
    const h = await harness({
      server: (peer) => {
        peer.setRequestHandler('server/discover', () => {
          discovers++;
          // Slow to start: the first probe is never answered.
          if (discovers === 1) return new Promise(() => {});
          return cacheable({ supportedVersions: [MODERN], capabilities: {} });
        });
        peer.setRequestHandler('initialize', () => {
          throw unsupportedProtocolVersionError([MODERN], '2025-11-25');
        });
      },
      // Silent so far, so the probe waits for the connect timeout.
      connect: { probeTimeoutMs: 30, timeoutMs: 200 },
    });
    expect(h.client.era).toBe('modern');
    expect(h.requests().map((request) => request.method)).toEqual(['server/discover', 'initialize', 'server/discover']);
    await h.client.close();
  });

  it('rejects a legacy server that answers initialize with a version the client does not support', async () => {
    const h = await harness({
      server: (peer) => legacyServer(peer, {}, '1999-01-01'),
      manualConnect: true,
    });
    const error = await h.client.connect(h.transport).catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_VERSION_NEGOTIATION');
    expect(h.notifications('notifications/initialized')).toEqual([]);
  });
});

describe('pinned versions and forced eras', () => {
  it('a pinned legacy version sends initialize with it, without probing', async () => {
    const h = await harness({
      server: (peer) => legacyServer(peer, { tools: {} }, '2024-11-05'),
      connect: { protocolVersion: '2024-11-05' },
    });
    expect(h.requests().map((request) => request.method)).toEqual(['initialize']);
    expect((h.requests('initialize')[0]!.params as { protocolVersion: string }).protocolVersion).toBe('2024-11-05');
    expect(h.client.protocolVersion).toBe('2024-11-05');
    await h.client.close();
    h.checked.assertClean();
  });

  it('a pinned modern version uses server/discover only, and -32022 is not retried with another version', async () => {
    const h = await harness({
      server: (peer) => modernServer(peer, {}),
      connect: { protocolVersion: MODERN },
    });
    expect(h.client.era).toBe('modern');
    expect(h.requests().map((request) => request.method)).toEqual(['server/discover']);
    await h.client.close();

    const refused = await harness({
      server: (peer) =>
        peer.setRequestHandler('server/discover', () => {
          throw unsupportedProtocolVersionError([MODERN], MODERN);
        }),
      manualConnect: true,
    });
    const error = await refused.client
      .connect(refused.transport, { protocolVersion: MODERN })
      .catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_VERSION_NEGOTIATION');
    expect(refused.requests('server/discover')).toHaveLength(1);
  });

  it("era: 'legacy' skips the probe; era: 'modern' never falls back", async () => {
    const legacy = await harness({ server: (peer) => legacyServer(peer, {}), connect: { era: 'legacy' } });
    expect(legacy.requests().map((request) => request.method)).toEqual(['initialize']);
    await legacy.client.close();

    const modern = await harness({ server: (peer) => legacyServer(peer, {}), manualConnect: true });
    const error = await modern.client.connect(modern.transport, { era: 'modern' }).catch((caught: unknown) => caught);
    expect(JsonRpcError.is(error) && error.code).toBe(-32601);
    expect(modern.requests('initialize')).toEqual([]);
  });

  it("era: 'modern' reports a discover answer that is not a DiscoverResult, naming what is wrong", async () => {
    const h = await harness({
      server: (peer) =>
        // resultType, supportedVersions and capabilities, but not the ttlMs / cacheScope 2026-07-28 requires.
        peer.setRequestHandler('server/discover', () => ({
          resultType: 'complete',
          supportedVersions: [MODERN],
          capabilities: {},
        })),
      manualConnect: true,
    });
    const error = await h.client.connect(h.transport, { era: 'modern' }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_RESULT');
    const issues = (error as McpClientError).data.issues as Array<{ path: string }>;
    expect(issues.map((issue) => issue.path).sort()).toEqual(['$.cacheScope', '$.ttlMs']);
    expect(h.client.connected).toBe(false);
    expect(h.requests('initialize')).toEqual([]);
  });

  it('a discover answer that is not complete is not a DiscoverResult', async () => {
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        // Well-formed but for its resultType: a discover answer is never interim.
        peer.setRequestHandler('server/discover', () => ({
          ...cacheable({ supportedVersions: [MODERN], capabilities: {} }, 0, 'public'),
          resultType: 'input_required',
        }));
      },
    });
    expect(h.client.era).toBe('legacy');
    await h.client.close();
  });

  it('refuses unknown pinned versions and a pinned version of the other era', async () => {
    const h = await harness({ server: (peer) => legacyServer(peer, {}), manualConnect: true });
    const unknown = await h.client.connect(h.transport, { protocolVersion: '2030-01-01' }).catch((e: unknown) => e);
    expect(McpClientError.is(unknown) && unknown.code).toBe('ERR_VERSION_NEGOTIATION');
    const h2 = await harness({ server: (peer) => legacyServer(peer, {}), manualConnect: true });
    const mismatch = await h2.client
      .connect(h2.transport, { protocolVersion: '2025-06-18', era: 'modern' })
      .catch((e: unknown) => e);
    expect(McpClientError.is(mismatch) && mismatch.code).toBe('ERR_VERSION_NEGOTIATION');
    expect(h2.sent).toEqual([]);
  });

  it('refuses to connect twice', async () => {
    const h = await harness({ server: (peer) => modernServer(peer, {}) });
    const error = await h.client.connect(h.transport).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_ALREADY_CONNECTED');
    await h.client.close();
  });
});

describe('waiting for the user while connecting', () => {
  it('client.holdTimeouts() keeps a sign-in from timing out the probe and changing the era', async () => {
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        modernServer(peer, {});
        const answer = peer.router.resolveRequestHandler('server/discover')!;
        // The transport waits for an access token (the user signs in) before the request gets through.
        peer.setRequestHandler('server/discover', async (params, ctx) => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return answer(params, ctx);
        });
      },
      manualConnect: true,
    });
    const connecting = h.client.connect(h.transport, { probeTimeoutMs: 20, timeoutMs: 150 });
    const release = h.client.holdTimeouts();
    setTimeout(release, 600);
    await connecting;
    expect(h.client.era).toBe('modern');
    expect(h.requests().map((request) => request.method)).toEqual(['server/discover']);
    await h.client.close();
  });
});

describe('when no MCP server answers', () => {
  /** A transport whose every request fails the way an HTTP transport reports a 404 (wrong URL). */
  function notFoundTransport(): Transport & { methods: string[] } {
    const methods: string[] = [];
    return {
      methods,
      async start() {},
      async send(message) {
        if ('method' in message) methods.push(message.method);
        throw Object.assign(new Error(`POST http://127.0.0.1/wrong: HTTP 404 Not Found`), {
          code: 'ERR_HTTP_STATUS',
          data: { status: 404 },
        });
      },
      async close() {},
    };
  }

  it('a 404 on connect names the server/discover probe and then initialize, with what each got', async () => {
    const client = new Client({ name: 'test-client', version: '0.1.0' });
    const transport = notFoundTransport();
    const error = await client.connect(transport).catch((caught: unknown) => caught);
    expect(transport.methods).toEqual(['server/discover', 'initialize']);
    expect(McpClientError.is(error) && error.code).toBe('ERR_CONNECT_FAILED');
    const message = (error as Error).message;
    expect(message).toMatch(/server\/discover \(2026-07-28\): POST .*HTTP 404.*\(ERR_HTTP_STATUS\); then initialize/);
    expect(message.indexOf('server/discover')).toBeLessThan(message.indexOf('initialize'));
    const attempts = (error as McpClientError).data.attempts as Array<{ method: string; error: { data: unknown } }>;
    expect(attempts.map((attempt) => [attempt.method, attempt.error.data])).toEqual([
      ['server/discover', { status: 404 }],
      ['initialize', { status: 404 }],
    ]);
    expect((error as Error).cause).toBe(attempts[1]!.error);
  });

  it('a server that speaks but leaves the probe unanswered, then refuses initialize: the error says both', async () => {
    const h = await harness({
      server: (peer) => {
        peer.setRequestHandler('server/discover', () => {
          void peer.notify('notifications/message', { level: 'info', data: 'up' });
          return new Promise(() => {});
        });
        peer.setRequestHandler('initialize', () => {
          throw new JsonRpcError(-32602, 'Unsupported client');
        });
      },
      manualConnect: true,
    });
    const error = await h.client
      .connect(h.transport, { probeTimeoutMs: 30, timeoutMs: 5_000 })
      .catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_CONNECT_FAILED');
    expect((error as Error).message).toContain(
      "server/discover (2026-07-28): server/discover got no answer within 30 ms of the server's first message; then initialize (2025-11-25): Unsupported client (-32602)",
    );
  });
});
