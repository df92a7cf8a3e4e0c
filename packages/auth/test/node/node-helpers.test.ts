// The Node helpers: the resolving fetch refuses a name that resolves to a non-public address before anything is sent,
// and openInBrowser refuses what is not https: (or loopback http:) before any process starts.
import { describe, expect, it } from 'vitest';
import { createResolvingFetch, openInBrowser } from '../../src/node/index';

describe('createResolvingFetch', () => {
  // A resolver stands in for DNS: the names below are never looked up for real.
  const rebinding = async (hostname: string) =>
    hostname === 'auth.rebind.example'
      ? [
          { address: '203.0.114.9', family: 4 },
          { address: '169.254.169.254', family: 4 },
        ]
      : hostname === 'v6.rebind.example'
        ? [{ address: '::ffff:10.0.0.8', family: 6 }]
        : [{ address: '198.51.99.7', family: 4 }];

  it('refuses a name with any non-public address (IPv4 or IPv6), without calling fetch', async () => {
    const sent: string[] = [];
    const guarded = createResolvingFetch({
      resolve: rebinding,
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}');
      },
    });
    await expect(guarded('https://auth.rebind.example/.well-known/x')).rejects.toThrow(/169\.254\.169\.254/);
    await expect(guarded('https://v6.rebind.example/')).rejects.toThrow(/non-public address/);
    expect(sent).toEqual([]);
    await guarded('https://auth.public.example/token');
    expect(sent).toEqual(['https://auth.public.example/token']);
  });

  it('lets literal addresses through to the OAuth client (its own gate judges them) and honours allowHosts', async () => {
    const sent: string[] = [];
    const guarded = createResolvingFetch({
      allowHosts: ['auth.rebind.example'],
      resolve: rebinding,
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}');
      },
    });
    await guarded('https://auth.rebind.example/metadata');
    await guarded('https://192.0.2.1/x');
    expect(sent).toEqual(['https://auth.rebind.example/metadata', 'https://192.0.2.1/x']);
  });
});

describe('openInBrowser', () => {
  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'http://example.com/authorize', 'data:text/html,x']) {
    it(`refuses ${url.split(':')[0]}: URLs before starting anything`, async () => {
      await expect(openInBrowser(url)).rejects.toThrow(/refusing/);
    });
  }
});
