// The HTTP transports against the contract, over node:http on 127.0.0.1: Streamable HTTP with a legacy session
// (2025-11-25), Streamable HTTP in 2026-07-28 (one request, one response), and the deprecated HTTP+SSE transport.
// The client ends are the real client transports; the server ends are what the real endpoints make (see http-ends.ts).
import type { JsonRpcMessage, Transport } from '@mcpkit/jsonrpc-core';
import {
  createSseHandler,
  createStreamableHttpHandler,
  SseClientTransport,
  StreamableHttpClientTransport,
} from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { describe, it } from 'vitest';
import { describeTransport, type TransportPair } from '../src/index';
import { HandoverServer, handedOver, StatelessEndServer } from './http-ends';

const CLIENT_INFO = { name: 'contract-client', version: '0.0.0' };

/** Sends a request on a started transport and resolves with its response (the transport's slots are borrowed). */
function exchange(transport: Transport, message: JsonRpcMessage): Promise<JsonRpcMessage> {
  return new Promise((resolve, reject) => {
    transport.onmessage = (reply) => {
      if ('id' in reply && !('method' in reply) && reply.id === (message as { id?: unknown }).id) resolve(reply);
    };
    Promise.resolve(transport.send(message)).catch(reject);
  });
}

function httpInfo(info: { request?: { url?: string; headers?: Record<string, string | undefined> } } | undefined) {
  if (info?.request?.headers?.['content-type'] === undefined) {
    throw new Error('the server end delivered a message without the HTTP request headers');
  }
}

describeTransport(
  'Streamable HTTP, legacy session (2025-11-25)',
  async (): Promise<TransportPair> => {
    const server = new HandoverServer();
    const handler = createStreamableHttpHandler(server);
    const listening = await listen(handler, { port: 0 });
    const client = new StreamableHttpClientTransport(listening.url);
    await client.start();
    await exchange(client, {
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
    });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const accepted = server.accepted.at(-1)!;
    return {
      client: handedOver(client),
      server: accepted.takeOver(),
      dispose: () => listening.close(),
    };
  },
  { describe, it, capabilities: { messageInfo: httpInfo } },
);

describeTransport(
  'Streamable HTTP, 2026-07-28',
  async (): Promise<TransportPair> => {
    const server = new StatelessEndServer();
    const listening = await listen(createStreamableHttpHandler(server), { port: 0 });
    return {
      client: new StreamableHttpClientTransport(listening.url),
      server: server.end,
      dispose: () => listening.close(),
    };
  },
  {
    describe,
    it,
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
    capabilities: {
      serverInitiated: false,
      serverCloses: false,
      closeReachesServer: false,
      cancelsBySignal: true,
      messageInfo: httpInfo,
    },
  },
);

describeTransport(
  'HTTP+SSE (deprecated, 2024-11-05)',
  async (): Promise<TransportPair> => {
    const server = new HandoverServer();
    // One path for both: GET opens the stream, POST delivers (the endpoint event names it).
    const listening = await listen(createSseHandler(server, { endpoint: '/mcp' }), { port: 0 });
    const client = new SseClientTransport(listening.url);
    await client.start();
    const accepted = server.accepted.at(-1)!;
    return {
      client: handedOver(client),
      server: accepted.takeOver(),
      dispose: () => listening.close(),
    };
  },
  { describe, it, capabilities: { messageInfo: httpInfo } },
);
