import { Client } from '@mcpkit/client';
import { createLinkedTransports, JsonRpcError } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayError } from '../src/index';
import { gatewayWithClient, LEGACY, MODERN, memoryUpstream, sampleUpstream } from './harness';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(version = MODERN) {
  const front = await gatewayWithClient(version);
  cleanups.push(async () => {
    await front.client.close();
    await front.gateway.close();
    await front.front.close();
  });
  return front;
}

function upstreamServer(name = 'upstream') {
  const upstream = sampleUpstream(name);
  cleanups.push(() => upstream.server.close());
  return upstream;
}

describe('mount options', () => {
  it('filters tools, prompts and resources, and renames tools', async () => {
    const { gateway, client, connectClient } = await setup();
    const upstream = upstreamServer();
    await gateway.mount('up', memoryUpstream(upstream.server, LEGACY).connection, {
      tools: { allow: ['e*', 'slow', 'ask'], deny: [/^ask$/] },
      prompts: { deny: ['greet'] },
      resources: { allow: [(uri) => uri.includes('{')] },
      rename: { tools: { slow: 'wait_for_it' } },
    });
    await connectClient();
    expect((await client.listAllTools()).map((tool) => tool.name).sort()).toEqual(['up_echo', 'wait_for_it']);
    expect(await client.listAllPrompts()).toEqual([]);
    expect(await client.listAllResources()).toEqual([]);
    expect((await client.listAllResourceTemplates()).map((template) => template.uriTemplate)).toEqual([
      'up+file:///files/{name}',
    ]);
    const echoed = await client.callTool({ name: 'up_echo', arguments: { text: 'renamed ok' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'renamed ok' }]);
  });

  it('passes names and URIs through for an empty namespace, the server’s own resources first', async () => {
    const { gateway, client, connectClient, front } = await setup(LEGACY);
    front.registerResource('own', 'file:///own.txt', {}, (uri) => ({ contents: [{ uri, text: 'mine' }] }));
    const upstream = upstreamServer();
    await gateway.mount('', memoryUpstream(upstream.server, MODERN).connection);
    await connectClient();
    expect((await client.listAllTools()).map((tool) => tool.name).sort()).toEqual(['ask', 'echo', 'slow']);
    expect((await client.readResource({ uri: 'file:///notes/a b.txt' })).contents).toEqual([
      { uri: 'file:///notes/a b.txt', text: 'note A' },
    ]);
    expect((await client.readResource({ uri: 'file:///own.txt' })).contents).toEqual([
      { uri: 'file:///own.txt', text: 'mine' },
    ]);
    expect((await client.readResource({ uri: 'file:///files/z' })).contents).toEqual([
      { uri: 'file:///files/z', text: 'file z' },
    ]);
  });

  it('refuses a collision with an error naming both, between mounts and with the server’s own tools', async () => {
    const { gateway, front } = await setup();
    const one = upstreamServer('one');
    const two = upstreamServer('two');
    await gateway.mount('a', memoryUpstream(one.server, LEGACY).connection);
    const clash = gateway.mount('b', memoryUpstream(two.server, LEGACY).connection, {
      rename: { tools: { echo: 'a_echo' } },
    });
    await expect(clash).rejects.toSatisfy(
      (error: unknown) =>
        GatewayError.is(error) &&
        error.code === 'ERR_NAME_COLLISION' &&
        /mount 'b'.*'a_echo'.*mount 'a'/.test(error.message),
    );
    expect(gateway.mounts.has('b')).toBe(false);

    front.registerTool('c_echo', { description: 'mine' }, () => ({ content: [] }));
    const third = upstreamServer('three');
    await expect(gateway.mount('c', memoryUpstream(third.server, LEGACY).connection)).rejects.toThrow(
      /mount 'c'.*'echo'.*'c_echo'.*server already registered/,
    );
    await expect(gateway.mount('a', memoryUpstream(third.server, LEGACY).connection)).rejects.toThrow(
      /already mounted/,
    );
  });

  it('runs a mount’s middleware only for the requests that mount answers', async () => {
    const { gateway, client, connectClient, front } = await setup();
    front.registerTool('local', { description: 'not mounted' }, () => ({ content: [{ type: 'text', text: 'local' }] }));
    const seen: string[] = [];
    const upstream = upstreamServer();
    await gateway.mount('up', memoryUpstream(upstream.server, MODERN).connection, {
      use: async (ctx, next) => {
        const name = (ctx.params as { name?: string; uri?: string } | undefined)?.name ?? ctx.params?.uri;
        seen.push(`${ctx.method} ${String(name)}`);
        if (name === 'up_slow') throw new JsonRpcError(-32001, 'slow is closed today');
        return next();
      },
    });
    await connectClient();
    await client.callTool({ name: 'local', arguments: {} });
    await client.callTool({ name: 'up_echo', arguments: { text: 'x' } });
    await client.readResource({ uri: 'up+file:///notes/a b.txt' });
    await expect(client.callTool({ name: 'up_slow', arguments: {} })).rejects.toThrow(/slow is closed today/);
    expect(seen).toEqual(['tools/call up_echo', 'resources/read up+file:///notes/a b.txt', 'tools/call up_slow']);
  });

  it('uses a connected Client as it is and leaves it open', async () => {
    const { gateway, client, connectClient } = await setup();
    const upstream = upstreamServer();
    const [clientSide, serverSide] = createLinkedTransports();
    await upstream.server.connect(serverSide);
    const own = new Client({ name: 'mine', version: '1.0.0' });
    await own.connect(clientSide, { protocolVersion: LEGACY });
    cleanups.push(() => own.close());
    await gateway.mount('up', own);
    await connectClient();
    const result = await client.callTool({ name: 'up_echo', arguments: { text: 'via given client' } });
    expect(result.content).toEqual([{ type: 'text', text: 'via given client' }]);
    await gateway.unmount('up');
    expect(own.connected).toBe(true);
    expect(await client.listAllTools()).toEqual([]);
  });

  it('never shows one caller another’s question: a legacy ask with several calls in flight is refused', async () => {
    const { gateway, client, connectClient } = await setup(LEGACY);
    const upstream = upstreamServer();
    await gateway.mount('up', memoryUpstream(upstream.server, LEGACY).connection);
    let asked = 0;
    const elicitation = () => {
      asked += 1;
      return { action: 'accept' as const, content: { name: 'Ada' } };
    };
    const other = new Client({ name: 'other', version: '1.0.0' }, { handlers: { elicitation } });
    cleanups.push(() => other.close());
    await connectClient();
    const [clientSide, serverSide] = createLinkedTransports();
    await gateway.server.connect(serverSide);
    await other.connect(clientSide, { protocolVersion: LEGACY });
    const slow = client.callTool({ name: 'up_slow', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 30));
    await expect(other.callTool({ name: 'up_ask', arguments: {} })).rejects.toThrow(/2 requests of mount 'up'/);
    expect(asked).toBe(0);
    upstream.release();
    await slow;
    // Alone in flight, the same question reaches its caller.
    const answered = await other.callTool({ name: 'up_ask', arguments: {} }).catch((error: Error) => error);
    expect(asked).toBe(1);
    expect(answered).toBeInstanceOf(Error); // the caller has no sampling handler: the next question fails
  });

  it('maps the resource URIs a tool or prompt points at, so the caller can read them through the gateway', async () => {
    const { gateway, client, connectClient } = await setup();
    const upstream = upstreamServer();
    upstream.server.registerTool('point', { description: 'links a note' }, () => ({
      content: [
        { type: 'resource_link', uri: 'file:///notes/a b.txt', name: 'a note' },
        { type: 'resource', resource: { uri: 'file:///files/x.txt', text: 'file x.txt' } },
        { type: 'text', text: 'see above' },
      ],
    }));
    upstream.server.registerPrompt('cite', { description: 'embeds a note' }, () => ({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: 'file:///notes/a b.txt', text: 'x' } } },
      ],
    }));
    await gateway.mount('up', memoryUpstream(upstream.server, LEGACY).connection);
    await connectClient();
    const pointed = await client.callTool({ name: 'up_point', arguments: {} });
    expect(pointed.content).toEqual([
      { type: 'resource_link', uri: 'up+file:///notes/a b.txt', name: 'a note' },
      { type: 'resource', resource: { uri: 'up+file:///files/x.txt', text: 'file x.txt' } },
      { type: 'text', text: 'see above' },
    ]);
    const link = pointed.content[0] as { uri: string };
    expect((await client.readResource({ uri: link.uri })).contents).toEqual([{ uri: link.uri, text: 'note A' }]);
    const cited = await client.getPrompt({ name: 'up_cite' });
    expect(cited.messages[0]?.content).toEqual({
      type: 'resource',
      resource: { uri: 'up+file:///notes/a b.txt', text: 'x' },
    });
  });

  it('crosses the extensions it is told to: advertised with the upstream’s declaration, methods forwarded', async () => {
    for (const version of [MODERN, LEGACY]) {
      const { gateway, client, connectClient, front } = await setup(version);
      const upstream = upstreamServer();
      upstream.server.extend({
        id: 'com.example/echo',
        declaration: { maxLength: 10 },
        methods: { 'com.example/echo': (params) => ({ echoed: params }) },
      });
      await gateway.mount('', memoryUpstream(upstream.server, MODERN).connection, {
        extensions: { 'com.example/echo': ['com.example/echo'], 'com.example/absent': ['com.example/absent'] },
      });
      await connectClient();
      if (version === MODERN) {
        expect(client.serverCapabilities?.extensions).toEqual({
          'com.example/echo': { maxLength: 10 },
          'io.modelcontextprotocol/tasks': {},
        });
      }
      const answer = await client.request('com.example/echo', { text: 'hi' });
      expect(answer).toMatchObject({ echoed: { text: 'hi' } });
      expect(front.server.extensions.has('com.example/absent')).toBe(false);
    }
  });

  it('takes a given Client’s items away when a call finds it closed', async () => {
    const { gateway, client, connectClient } = await setup();
    const upstream = upstreamServer();
    const [clientSide, serverSide] = createLinkedTransports();
    await upstream.server.connect(serverSide);
    const own = new Client({ name: 'mine', version: '1.0.0' });
    await own.connect(clientSide, { protocolVersion: MODERN });
    const mount = await gateway.mount('up', own);
    await connectClient();
    await serverSide.close();
    await expect(client.callTool({ name: 'up_echo', arguments: { text: 'x' } })).rejects.toThrow(/mount 'up'/);
    expect(mount.status).toBe('down');
    expect(await client.listAllTools()).toEqual([]);
  });
});
