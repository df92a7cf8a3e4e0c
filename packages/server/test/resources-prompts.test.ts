import { resourceNotFoundError } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '../src/index';
import { closeHarnesses, connect, initialize, LEGACY_VERSIONS, type Loose, modern, rpcError } from './harness';

afterEach(closeHarnesses);

function library(): McpServer {
  const server = new McpServer({ name: 'library', version: '1' });
  server.registerResource('readme', 'file:///README.md', { title: 'Read me', mimeType: 'text/markdown' }, (uri) => ({
    contents: [{ uri, mimeType: 'text/markdown', text: '# Library' }],
  }));
  const books = new ResourceTemplate('books://{author}/{title}{?edition}', {
    list: () => [{ uri: 'books://tolkien/hobbit', name: 'The Hobbit' }],
    complete: {
      author: (value) => ['austen', 'asimov', 'tolkien'].filter((author) => author.startsWith(value)),
      title: (value, context) =>
        (context.arguments.author === 'tolkien' ? ['hobbit', 'silmarillion'] : ['emma']).filter((title) =>
          title.startsWith(value),
        ),
    },
  });
  server.registerResource('book', books, { mimeType: 'text/plain' }, (uri, variables) => ({
    contents: [{ uri, text: JSON.stringify(variables) }],
  }));
  server.registerResource('cover', new ResourceTemplate('covers://{id}'), { mimeType: 'image/png' }, (uri) => ({
    contents: [{ uri, blob: 'iVBORw0KGgo=' }],
  }));
  server.registerPrompt(
    'summarise',
    {
      description: 'Summarise a book',
      argsSchema: z.object({ title: z.string().describe('Book title'), style: z.enum(['short', 'long']).optional() }),
      complete: { style: (value) => ['short', 'long'].filter((style) => style.startsWith(value)) },
    },
    ({ title, style }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarise ${title} (${style ?? 'short'})` } }],
    }),
  );
  return server;
}

describe('resources', () => {
  it('lists fixed resources then template listings; lists templates', async () => {
    const harness = await connect(library());
    const list = await harness.client.request<Loose>('resources/list', modern());
    expect(list.resources).toEqual([
      { uri: 'file:///README.md', name: 'readme', title: 'Read me', mimeType: 'text/markdown' },
      { uri: 'books://tolkien/hobbit', name: 'The Hobbit' },
    ]);
    const templates = await harness.client.request<Loose>('resources/templates/list', modern());
    expect(templates.resourceTemplates).toEqual([
      { uriTemplate: 'books://{author}/{title}{?edition}', name: 'book', mimeType: 'text/plain' },
      { uriTemplate: 'covers://{id}', name: 'cover', mimeType: 'image/png' },
    ]);
  });

  it('reads fixed resources and routes template matches with their variables', async () => {
    const harness = await connect(library());
    const readme = await harness.client.request<Loose>('resources/read', modern({ uri: 'file:///README.md' }));
    expect(readme.contents[0].text).toBe('# Library');
    const book = await harness.client.request<Loose>(
      'resources/read',
      modern({ uri: 'books://tolkien/the%20hobbit?edition=2' }),
    );
    expect(JSON.parse(book.contents[0].text)).toEqual({ author: 'tolkien', title: 'the hobbit', edition: '2' });
    const cover = await harness.client.request<Loose>('resources/read', modern({ uri: 'covers://42' }));
    expect(cover.contents[0].blob).toBe('iVBORw0KGgo=');
  });

  it('resource not found: -32602 in 2026-07-28, -32002 in every legacy revision', async () => {
    const harness = await connect(library());
    const modernError = await rpcError(harness.client.request('resources/read', modern({ uri: 'nothing://here' })));
    expect(modernError).toMatchObject({ code: -32602, data: { uri: 'nothing://here' } });
    await harness.close();
    for (const version of LEGACY_VERSIONS) {
      const harness = await connect(library());
      await initialize(harness.client, version);
      const legacyError = await rpcError(harness.client.request('resources/read', { uri: 'nothing://here' }));
      expect(legacyError, version).toMatchObject({ code: -32002, data: { uri: 'nothing://here' } });
      harness.checked.assertClean();
      await harness.close();
    }
  });

  it('a template handler that returns undefined answers "resource not found" in the code of the era', async () => {
    const server = library();
    server.registerResource(
      'shelf',
      new ResourceTemplate('shelf://{slot}'),
      { mimeType: 'text/plain' },
      (uri, { slot }) => (slot === 'a1' ? { contents: [{ uri, text: 'occupied' }] } : undefined),
    );
    let harness = await connect(server);
    const found = await harness.client.request<Loose>('resources/read', modern({ uri: 'shelf://a1' }));
    expect(found.contents[0].text).toBe('occupied');
    const missing = await rpcError(harness.client.request('resources/read', modern({ uri: 'shelf://z9' })));
    expect(missing).toMatchObject({ code: -32602, data: { uri: 'shelf://z9' } });
    await harness.close();
    harness = await connect(server);
    await initialize(harness.client, '2025-06-18');
    const legacy = await rpcError(harness.client.request('resources/read', { uri: 'shelf://z9' }));
    expect(legacy).toMatchObject({ code: -32002, data: { uri: 'shelf://z9' } });
    harness.checked.assertClean();
  });

  it('a handler deep in a call stack throws resourceNotFoundError(uri, ctx.protocolVersion): the code of the era', async () => {
    const server = library();
    server.registerResource(
      'drawer',
      new ResourceTemplate('drawer://{slot}'),
      { mimeType: 'text/plain' },
      (uri, _v, ctx) => {
        throw resourceNotFoundError(uri, ctx.protocolVersion);
      },
    );
    let harness = await connect(server);
    const missing = await rpcError(harness.client.request('resources/read', modern({ uri: 'drawer://z9' })));
    expect(missing).toMatchObject({ code: -32602, data: { uri: 'drawer://z9' } });
    await harness.close();
    harness = await connect(server);
    await initialize(harness.client, '2025-11-25');
    const legacy = await rpcError(harness.client.request('resources/read', { uri: 'drawer://z9' }));
    expect(legacy).toMatchObject({ code: -32002, data: { uri: 'drawer://z9' } });
    harness.checked.assertClean();
    await harness.close();
  });

  it('completes template variables, with context', async () => {
    const harness = await connect(library());
    const complete = (argument: { name: string; value: string }, context?: Record<string, string>) =>
      harness.client.request<Loose>(
        'completion/complete',
        modern({
          ref: { type: 'ref/resource', uri: 'books://{author}/{title}{?edition}' },
          argument,
          ...(context ? { context: { arguments: context } } : {}),
        }),
      );
    expect((await complete({ name: 'author', value: 'a' })).completion).toEqual({
      values: ['austen', 'asimov'],
      total: 2,
      hasMore: false,
    });
    expect((await complete({ name: 'title', value: '' }, { author: 'tolkien' })).completion.values).toEqual([
      'hobbit',
      'silmarillion',
    ]);
    expect((await complete({ name: 'edition', value: '' })).completion).toEqual({ values: [], hasMore: false });
    const unknown = await rpcError(
      harness.client.request(
        'completion/complete',
        modern({ ref: { type: 'ref/resource', uri: 'x://{y}' }, argument: { name: 'y', value: '' } }),
      ),
    );
    expect(unknown.code).toBe(-32602);
  });
});

describe('prompts', () => {
  it('lists arguments derived from the schema and validates them', async () => {
    const harness = await connect(library());
    const list = await harness.client.request<Loose>('prompts/list', modern());
    expect(list.prompts).toEqual([
      {
        name: 'summarise',
        description: 'Summarise a book',
        arguments: [
          { name: 'title', description: 'Book title', required: true },
          { name: 'style', required: false },
        ],
      },
    ]);
    const got = await harness.client.request<Loose>(
      'prompts/get',
      modern({ name: 'summarise', arguments: { title: 'Emma', style: 'long' } }),
    );
    expect(got.messages[0].content.text).toBe('Summarise Emma (long)');
    expect(got.resultType).toBe('complete');
    const invalid = await rpcError(
      harness.client.request('prompts/get', modern({ name: 'summarise', arguments: { style: 'medium' } })),
    );
    expect(invalid.code).toBe(-32602);
    expect(invalid.message).toContain('title');
    const unknown = await rpcError(harness.client.request('prompts/get', modern({ name: 'nope' })));
    expect(unknown.code).toBe(-32602);
  });

  it('completes prompt arguments (legacy 2025-06-18)', async () => {
    const harness = await connect(library());
    await initialize(harness.client, '2025-06-18');
    const result = await harness.client.request<Loose>('completion/complete', {
      ref: { type: 'ref/prompt', name: 'summarise' },
      argument: { name: 'style', value: 'l' },
      context: { arguments: { title: 'Emma' } },
    });
    expect(result).toEqual({ completion: { values: ['long'], total: 1, hasMore: false } });
  });

  it('completion works in 2024-11-05, which has no completions capability', async () => {
    const harness = await connect(library());
    await initialize(harness.client, '2024-11-05');
    const result = await harness.client.request<Loose>('completion/complete', {
      ref: { type: 'ref/prompt', name: 'summarise' },
      argument: { name: 'style', value: 's' },
    });
    expect(result.completion.values).toEqual(['short']);
  });
});
