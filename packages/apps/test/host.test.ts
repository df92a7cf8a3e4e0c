import { createLinkedTransports, JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AppBridge,
  type AppBridgeOptions,
  AppsError,
  buildViewCsp,
  mountAppView,
  permissionsAllow,
  sandboxProxyHtml,
  withCsp,
} from '../src/host/index';
import { AppView } from '../src/view/index';
import { hostClient, type Loose } from './helpers';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A bridge on a real server connection, with a raw JSON-RPC peer standing for the view. */
async function bridgeWithRawView(extra: Partial<AppBridgeOptions> = {}) {
  const { client } = await hostClient();
  const errors: Error[] = [];
  const bridge = new AppBridge({
    client,
    hostInfo: { name: 'test-host', version: '1.0.0' },
    hostContext: { theme: 'dark', locale: 'en-GB', containerDimensions: { maxHeight: 600 } },
    onerror: (error) => errors.push(error),
    ...extra,
  });
  const [hostSide, viewSide] = createLinkedTransports();
  const view = new JsonRpcPeer();
  await bridge.connect(hostSide);
  await view.connect(viewSide);
  closers.push(
    () => view.close(),
    () => bridge.close(),
    () => client.close(),
  );
  return { bridge, view, errors, client };
}

async function handshake(view: JsonRpcPeer) {
  const result = await view.request<Loose>('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'raw-view', version: '1.0.0' },
    appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
  });
  await view.notify('ui/notifications/initialized', {});
  return result;
}

describe('AppBridge with the view library', () => {
  it('hands over input and result, proxies a server tool, opens a link, reports size and tears down', async () => {
    const { client } = await hostClient();
    const opened: string[] = [];
    const sizes: Loose[] = [];
    const bridge = new AppBridge({
      client,
      hostInfo: { name: 'test-host', version: '1.0.0' },
      hostContext: { theme: 'light' },
      onopenlink: (url) => {
        opened.push(url);
      },
      onsizechange: (size) => sizes.push(size),
    });
    const [hostSide, viewSide] = createLinkedTransports();
    await bridge.connect(hostSide);
    const view = new AppView({ name: 'chart', version: '1.0.0' }, { transport: viewSide, autoResize: false });
    const inputs: Loose[] = [];
    const results: Loose[] = [];
    const contexts: Loose[] = [];
    let tornDown = '';
    view.ontoolinput = (params) => inputs.push(params);
    view.ontoolresult = (result) => results.push(result);
    view.onhostcontextchanged = (changed) => contexts.push(changed);
    view.onteardown = ({ reason }) => {
      tornDown = reason ?? '';
    };
    const init = await view.connect();
    await bridge.initialized;
    expect(init.hostInfo).toEqual({ name: 'test-host', version: '1.0.0' });
    expect(init.hostCapabilities).toMatchObject({ serverTools: {}, openLinks: {} });
    expect(bridge.app?.appInfo).toEqual({ name: 'chart', version: '1.0.0' });

    await bridge.sendToolInput({ month: 'Jan' });
    await bridge.sendToolResult(await client.callTool({ name: 'sales' }));
    await bridge.setHostContext({ theme: 'dark' });
    await vi.waitFor(() => expect(contexts).toEqual([{ theme: 'dark' }]));
    expect(inputs).toEqual([{ arguments: { month: 'Jan' } }]);
    expect(results[0]?.structuredContent).toEqual({ values: [1, 2] });
    expect(view.hostContext?.theme).toBe('dark');

    expect((await view.callServerTool({ name: 'refresh' })).content).toEqual([{ type: 'text', text: 'refreshed' }]);
    await view.openLink({ url: 'https://example.com/docs' });
    expect(opened).toEqual(['https://example.com/docs']);
    await view.sendSizeChanged({ width: 300, height: 200 });
    await vi.waitFor(() => expect(sizes).toEqual([{ width: 300, height: 200 }]));
    expect(await bridge.teardown('done')).toBe('answered');
    expect(tornDown).toBe('done');
    await client.close();
  });
});

describe('AppBridge checks every message from the view', () => {
  it('answers malformed requests with JSON-RPC errors and keeps serving', async () => {
    const { view } = await bridgeWithRawView({ onopenlink: () => undefined });
    await expect(view.request('ui/initialize', { appInfo: 'x' })).rejects.toMatchObject({ code: -32602 });
    await handshake(view);
    await expect(view.request('tools/call', { arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(view.request('tools/call', { name: 'sales', arguments: [1] })).rejects.toMatchObject({ code: -32602 });
    await expect(view.request('resources/read', {})).rejects.toMatchObject({ code: -32602 });
    await expect(view.request('ui/open-link', { url: 'not a url' })).rejects.toMatchObject({ code: -32602 });
    await expect(view.request('ui/open-link', { url: 'javascript:alert(1)' })).rejects.toThrow(/javascript: links/);
    await expect(view.request('ui/request-display-mode', { mode: 'huge' })).rejects.toMatchObject({ code: -32602 });
    await expect(view.request('sampling/createMessage', {})).rejects.toMatchObject({ code: -32601 });
    await expect(view.request('ui/message', { role: 'user', content: { type: 'text', text: 'hi' } })).rejects.toThrow(
      /does not take messages/,
    );
    // Still serving after all that.
    expect(await view.request('ping')).toEqual({});
  });

  it('drops malformed notifications and reports them, never throwing', async () => {
    const sizes: Loose[] = [];
    const { view, errors } = await bridgeWithRawView({ onsizechange: (size) => sizes.push(size) });
    await handshake(view);
    await view.notify('ui/notifications/size-changed', { width: 'wide', height: -1 });
    await view.notify('notifications/message', { level: 'shout', data: 'x' });
    await view.notify('ui/notifications/initialized', {});
    await view.notify('ui/notifications/size-changed', { height: 120 });
    await vi.waitFor(() => expect(sizes).toEqual([{ width: undefined, height: 120 }]));
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining('dropped ui/notifications/size-changed'),
      expect.stringContaining('dropped notifications/message'),
      expect.stringContaining('initialized before ui/initialize, or twice'),
    ]);
  });

  it('refuses a view calling a model-only tool, naming the visibility; allows app tools', async () => {
    const { view } = await bridgeWithRawView();
    await handshake(view);
    const error = await view.request('tools/call', { name: 'model_only' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: -32000, data: { tool: 'model_only', visibility: ['model'] } });
    expect((error as Error).message).toContain('visibility ["model"], which does not include "app"');
    await expect(view.request('tools/call', { name: 'nope' })).rejects.toThrow(/no tool 'nope'/);
    expect(await view.request<Loose>('tools/call', { name: 'sales' })).toMatchObject({
      structuredContent: { values: [1, 2] },
    });
  });

  it('delivers partial input and cancellation to the view, and takes its messages when the host has onmessage', async () => {
    const { client } = await hostClient();
    closers.push(() => client.close());
    const messages: Loose[] = [];
    const bridge = new AppBridge({
      client,
      hostInfo: { name: 'h', version: '1' },
      onmessage: (message) => {
        messages.push(message);
      },
    });
    const [hostSide, viewSide] = createLinkedTransports();
    await bridge.connect(hostSide);
    const view = new AppView({ name: 'v', version: '1' }, { transport: viewSide, autoResize: false });
    const seen: Loose[] = [];
    view.ontoolinputpartial = (params) => seen.push({ partial: params.arguments });
    view.ontoolcancelled = (params) => seen.push({ cancelled: params.reason });
    const init = await view.connect();
    expect(init.hostCapabilities.message).toEqual({});
    await bridge.initialized;
    await bridge.sendToolInputPartial({ region: 'E' });
    await bridge.sendToolCancelled('the user stopped it');
    await view.sendMessage({ role: 'user', content: { type: 'text', text: 'more please' } });
    await vi.waitFor(() => expect(seen).toEqual([{ partial: { region: 'E' } }, { cancelled: 'the user stopped it' }]));
    expect(messages).toEqual([{ role: 'user', content: { type: 'text', text: 'more please' } }]);
    await view.close();
    await bridge.close();
  });

  it('sends nothing to the view before ui/notifications/initialized', async () => {
    const { bridge, view } = await bridgeWithRawView();
    await expect(bridge.sendToolInput({})).rejects.toMatchObject({ code: 'ERR_NOT_INITIALIZED' });
    await handshake(view);
    await bridge.initialized;
    await bridge.sendToolInput({});
  });

  it('grants only display modes both sides declared and returns the mode in effect', async () => {
    const { view } = await bridgeWithRawView({
      hostContext: { availableDisplayModes: ['inline', 'fullscreen'] },
      onrequestdisplaymode: (mode) => mode,
    });
    await handshake(view);
    expect(await view.request('ui/request-display-mode', { mode: 'pip' })).toEqual({ mode: 'inline' });
    expect(await view.request('ui/request-display-mode', { mode: 'fullscreen' })).toEqual({ mode: 'fullscreen' });
  });

  it('tears down after a bounded wait when the view never answers ui/resource-teardown', async () => {
    const { bridge, view } = await bridgeWithRawView({ teardownTimeoutMs: 150 });
    view.setRequestHandler('ui/resource-teardown', () => new Promise(() => undefined)); // never settles
    await handshake(view);
    await bridge.initialized;
    const started = Date.now();
    expect(await bridge.teardown('closing')).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(bridge.sendToolInput({})).rejects.toThrow();
  });
});

describe('mountAppView refuses what it must not render', () => {
  it('refuses a view over the HTML size limit before touching the page', async () => {
    const { client } = await hostClient({ html: `<!doctype html>${'x'.repeat(2_000)}` });
    closers.push(() => client.close());
    const error = await mountAppView({
      client,
      hostInfo: { name: 'h', version: '1' },
      resourceUri: 'ui://test/chart',
      sandboxUrl: 'https://sandbox.example/proxy.html',
      container: {} as HTMLElement,
      maxHtmlBytes: 1_000,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppsError);
    expect(error).toMatchObject({ code: 'ERR_VIEW_TOO_LARGE', data: { bytes: 2_015, limit: 1_000 } });
  });
});

describe('mountAppView refuses a resource that is not a view', () => {
  it('names the URI and the MIME type it found', async () => {
    const { mcp, client } = await hostClient();
    closers.push(() => client.close());
    mcp.registerResource('notes', 'ui://test/notes', { mimeType: 'text/html' }, (uri) => ({
      contents: [{ uri, mimeType: 'text/html', text: '<p>plain html</p>' }],
    }));
    const error = await mountAppView({
      client,
      hostInfo: { name: 'h', version: '1' },
      resourceUri: 'ui://test/notes',
      sandboxUrl: 'https://sandbox.example/proxy.html',
      container: {} as HTMLElement,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'ERR_NOT_A_VIEW', data: { uri: 'ui://test/notes', mimeType: 'text/html' } });
  });
});

describe('mountAppView refuses a sandbox on the page origin', () => {
  it('names the sandbox URL', async () => {
    const { client } = await hostClient();
    closers.push(() => client.close());
    vi.stubGlobal('location', new URL('https://host.example/chat'));
    try {
      const error = await mountAppView({
        client,
        hostInfo: { name: 'h', version: '1' },
        resourceUri: 'ui://test/chart',
        sandboxUrl: '/sandbox.html',
        container: {} as HTMLElement,
      }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'ERR_SANDBOX', data: { sandboxUrl: 'https://host.example/sandbox.html' } });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the sandbox rules', () => {
  it('builds the restrictive default CSP without csp, and only the declared origins with it', () => {
    expect(buildViewCsp(undefined)).toBe(
      "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'",
    );
    const policy = buildViewCsp({
      connectDomains: ['https://api.example.com', "https://x.com; script-src 'unsafe-eval'"],
      resourceDomains: ['https://*.cdn.example.com'],
      frameDomains: ['https://www.youtube.com'],
      baseUriDomains: ['https://cdn.example.com'],
    });
    expect(policy).toContain("connect-src 'self' https://api.example.com;");
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("script-src 'self' 'unsafe-inline' https://*.cdn.example.com;");
    expect(policy).toContain('frame-src https://www.youtube.com;');
    expect(policy).toContain('base-uri https://cdn.example.com');
  });

  it('maps permissions to the allow attribute and puts the policy first in the document', () => {
    expect(permissionsAllow({ camera: {}, clipboardWrite: {} })).toBe('camera; clipboard-write');
    expect(permissionsAllow(undefined)).toBe('');
    expect(withCsp('<!DOCTYPE html><html><head></head></html>', "default-src 'none'")).toBe(
      `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><html><head></head></html>`,
    );
    expect(withCsp('<p>hi</p>', 'a"b')).toBe('<meta http-equiv="Content-Security-Policy" content="a&quot;b"><p>hi</p>');
  });

  it('makes a proxy page that names its host origins and cannot be closed early by the config', () => {
    const html = sandboxProxyHtml({ hostOrigins: ['https://host.example</script>'] });
    expect(html).toContain('https://host.example\\u003c/script>');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    // The embedded program (the proxy's main and the CSP functions, as source text) is valid JavaScript.
    const script = html.slice(html.indexOf('<script>') + '<script>'.length, html.lastIndexOf('</script>'));
    expect(() => new Function(script)).not.toThrow();
    expect(() => sandboxProxyHtml({ hostOrigins: [] })).toThrow(/at least one origin/);
  });
});
