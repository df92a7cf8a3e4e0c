import { describe, expect, it } from 'vitest';
import { WebSocketTransportError } from '../src/index';
import { clientTransport, closeAfterEach, connectClient, rawSocket, startServer } from './helpers';

closeAfterEach();

describe('Origin check at upgrade', () => {
  it('refuses a foreign browser origin with 403 by default on a loopback server, and accepts local ones', async () => {
    const { endpoint } = await startServer();
    await expect(rawSocket(endpoint.url, ['mcp'], { origin: 'http://evil.example' })).rejects.toMatchObject({
      status: 403,
      body: expect.stringContaining("Origin 'http://evil.example' is not allowed"),
    });
    const local = await rawSocket(endpoint.url, ['mcp'], { origin: 'http://localhost:5173' });
    local.close();
    const noOrigin = await rawSocket(endpoint.url);
    noOrigin.close();
    expect(endpoint.connections).toBeLessThanOrEqual(2);
  });

  it('uses the allow-list exactly when one is given', async () => {
    const { endpoint } = await startServer({ allowedOrigins: ['https://app.example.com'] });
    const allowed = await rawSocket(endpoint.url, ['mcp'], { origin: 'https://app.example.com' });
    allowed.close();
    await expect(rawSocket(endpoint.url, ['mcp'], { origin: 'http://localhost:5173' })).rejects.toMatchObject({
      status: 403,
    });
  });
});

describe('subprotocol negotiation', () => {
  it('selects mcp when offered among others', async () => {
    const { endpoint } = await startServer();
    const socket = await rawSocket(endpoint.url, ['something-else', 'mcp']);
    expect(socket.protocol).toBe('mcp');
    socket.close();
  });

  it('refuses an upgrade that does not offer mcp with 400 naming the fix', async () => {
    const { endpoint } = await startServer();
    await expect(rawSocket(endpoint.url, [])).rejects.toMatchObject({
      status: 400,
      body: expect.stringContaining('offer the \\"mcp\\" subprotocol'),
    });
    await expect(rawSocket(endpoint.url, ['graphql-ws'])).rejects.toMatchObject({ status: 400 });
  });

  it('the client transport offers mcp by default and fails clearly when the server is refused', async () => {
    const { endpoint } = await startServer();
    const transport = clientTransport(endpoint.url, { protocols: ['not-mcp'] });
    const failure = await transport.start().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebSocketTransportError);
    expect((failure as WebSocketTransportError).code).toBe('ERR_WS_CONNECT');
    expect((failure as Error).message).toMatch(/400/);
  });

  it('refuses other paths with 404', async () => {
    const { endpoint } = await startServer();
    await expect(rawSocket(endpoint.url.replace('/mcp', '/other'))).rejects.toMatchObject({ status: 404 });
  });
});

describe('authenticate hook', () => {
  const authenticate = (request: { headers: Record<string, string | string[] | undefined> }) =>
    request.headers.authorization === 'Bearer good' ? { token: 'good', clientId: 'app-1' } : false;

  it('refuses with 401 when the hook returns false', async () => {
    const { endpoint } = await startServer({ authenticate });
    await expect(rawSocket(endpoint.url)).rejects.toMatchObject({ status: 401 });
    const transport = clientTransport(endpoint.url, { headers: { authorization: 'Bearer bad' } });
    await expect(transport.start()).rejects.toThrow(/401/);
  });

  it('passes the identity to handlers as ctx.auth, with the upgrade request in ctx.info', async () => {
    const { endpoint } = await startServer({ authenticate });
    const client = await connectClient(endpoint.url, 'modern', { headers: { authorization: 'Bearer good' } });
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'app-1 /mcp' }]);
  });

  it('answers 500 and reports the error when the hook throws', async () => {
    const errors: Error[] = [];
    const { endpoint } = await startServer({
      authenticate: () => {
        throw new Error('verifier down');
      },
      onerror: (error) => errors.push(error),
    });
    await expect(rawSocket(endpoint.url)).rejects.toMatchObject({ status: 500 });
    expect(errors.map((error) => error.message)).toEqual(['verifier down']);
  });
});

describe('connection cap', () => {
  it('refuses an upgrade beyond maxConnections with 503, and accepts again once one closed', async () => {
    const { endpoint } = await startServer({ maxConnections: 2 });
    const first = await rawSocket(endpoint.url);
    const second = await rawSocket(endpoint.url);
    await expect(rawSocket(endpoint.url)).rejects.toMatchObject({
      status: 503,
      body: expect.stringContaining('too many connections (2)'),
    });
    first.close();
    await new Promise<void>((resolve) => {
      const wait = () => (endpoint.connections < 2 ? resolve() : setTimeout(wait, 5));
      wait();
    });
    const third = await rawSocket(endpoint.url);
    second.close();
    third.close();
  });
});
