import { Client } from '@mcpkit/client';
import type { JsonRpcMessage, MessageInfo, Transport } from '@mcpkit/jsonrpc-core';
import { tapTransport } from '@mcpkit/middleware/transport';
import { McpServer } from '@mcpkit/server';

// A transport is five members: start, send, close, and the onmessage / onclose slots the peer fills in. This one
// carries messages over a MessagePort (a worker, an iframe, a MessageChannel).
class PortTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  #closed = false;

  constructor(private readonly port: MessagePort) {}

  async start(): Promise<void> {
    this.port.onmessage = (event: MessageEvent) => this.onmessage?.(event.data as JsonRpcMessage);
    this.port.start();
  }

  send(message: JsonRpcMessage): void {
    if (this.#closed) throw new Error('PortTransport is closed'); // never drop a message silently
    this.port.postMessage(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.port.close();
    this.onclose?.();
  }
}

const server = new McpServer({ name: 'ported', version: '1.0.0' });
server.registerTool('ping_me', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));

const channel = new MessageChannel();
await server.connect(new PortTransport(channel.port2));
// tapTransport wraps any transport to watch both ways (recordTransport and limitMessageSize wrap the same way).
const client = new Client({ name: 'demo', version: '1.0.0' });
await client.connect(
  tapTransport(new PortTransport(channel.port1), {
    outbound: (message) => 'method' in message && console.log(`→ ${message.method}`),
    inbound: (message) => 'result' in message && console.log(`← result of #${String(message.id)}`),
  }),
  { era: 'legacy' },
);
const result = await client.callTool({ name: 'ping_me', arguments: {} });
console.log(result.content[0]?.type === 'text' ? result.content[0].text : '');
await client.close();
channel.port2.close();
