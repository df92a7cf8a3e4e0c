import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index';

describe('ServerSession lifecycle', () => {
  it('leaves server.sessions when it closes, even when the user replaced onclose', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const [, serverSide] = createLinkedTransports();
    const session = await server.connect(serverSide);
    let userOnClose = 0;
    session.onclose = () => userOnClose++;
    expect(server.sessions.has(session)).toBe(true);
    await session.close();
    expect(server.sessions.has(session)).toBe(false);
    expect(userOnClose).toBe(1);
  });

  it('reports session errors to the onerror the server has at connect time', async () => {
    const errors: string[] = [];
    const server = new McpServer({ name: 's', version: '1' }, { onError: (error) => errors.push(error.message) });
    const [clientSide, serverSide] = createLinkedTransports();
    await server.connect(serverSide);
    await clientSide.start();
    await clientSide.send({ jsonrpc: '2.0', id: 7, result: {} });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(errors.some((message) => /unknown request id 7/.test(message))).toBe(true);
    await server.close();
  });
});
