import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The README's examples are files of this folder shown verbatim: type-checked with the tests, run here, their output
// checked. Only their stable lines are pinned.
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(`${packageRoot}README.md`, 'utf8');
const SNIPPETS = [
  'test/readme/quickstart.ts',
  'test/readme/write-a-middleware.ts',
  'test/readme/write-an-extension.ts',
  'test/readme/write-a-transport.ts',
];

afterEach(() => {
  vi.restoreAllMocks();
});

async function printed(module: string): Promise<string[]> {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
  await import(module);
  return lines;
}

describe('README', () => {
  it('starts with the runnable example', () => {
    const firstCode = readme.indexOf('```');
    expect(readme.lastIndexOf('<!-- snippet: test/readme/quickstart.ts -->', firstCode)).toBeGreaterThan(0);
  });

  it('shows every snippet file verbatim', () => {
    const markers = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)];
    expect(markers.map((match) => match[1])).toEqual(SNIPPETS);
    for (const [, path, code] of markers) expect(code, path).toBe(readFileSync(`${packageRoot}${path}`, 'utf8'));
  });

  it('the quickstart logs both sides, refuses the second search (rate limit) and the wipe (approval)', async () => {
    const lines = await printed('./readme/quickstart');
    expect(lines).toContain('server: tools/call search → ok');
    expect(lines).toContain('client: tools/call search → error 429');
    expect(lines).toContain(
      'refused: Rate limit exceeded for tool "search": 1 requests, 0.1 more per second; retry in 10 s',
    );
    expect(lines).toContain('refused: The call of tool "wipe" was not approved; nothing was sent to the server');
    expect(lines.some((line) => line.includes('tools/call wipe'))).toBe(false);
  });

  it('the middleware example sets a typed variable and short-circuits prompts', async () => {
    const lines = await printed('./readme/write-a-middleware');
    expect(lines).toContain('tools/call for acme in <1 s');
    expect(lines).toContain('tenant acme');
    expect(lines).toContain('503: Prompts are closed for maintenance');
  });

  it('the extension example answers its method in both eras', async () => {
    const lines = await printed('./readme/write-an-extension');
    expect(lines).toEqual([
      'declared: {"regions":["eu"]}',
      'extension saw com.example/alerts/list (modern)',
      'alerts: ["storm over the Channel"]',
      'declared: {"regions":["eu"]}',
      'extension saw com.example/alerts/list (legacy)',
      'alerts: ["storm over the Channel"]',
    ]);
  });

  it('the transport example carries a call over a MessagePort, watched by tapTransport', async () => {
    const lines = await printed('./readme/write-a-transport');
    expect(lines).toEqual([
      '→ initialize',
      '← result of #1',
      '→ notifications/initialized',
      '→ tools/call',
      '← result of #2',
      'pong',
    ]);
  });
});
