import type { ListRootsResult, Root } from '@mcpkit/protocol';
import { CapabilityError } from '@mcpkit/protocol';
import { describe, expect, it } from 'vitest';
import { harness, legacyServer, modernServer, until } from './helpers/harness';

describe('notifyRootsListChanged', () => {
  it('legacy: sends notifications/roots/list_changed, and the server then reads the new list from the handler', async () => {
    let roots: Root[] = [{ uri: 'file:///work/project', name: 'project' }];
    const seen: ListRootsResult[] = [];
    const h = await harness({
      server: (peer) => {
        legacyServer(peer, {});
        // What a server that uses roots does on the notification: ask again.
        peer.setNotificationHandler('notifications/roots/list_changed', async () => {
          seen.push((await peer.request('roots/list', {})) as ListRootsResult);
        });
      },
      client: { handlers: { roots: () => ({ roots }) } },
    });
    expect(h.client.capabilities.roots).toEqual({ listChanged: true });

    roots = [...roots, { uri: 'file:///work/notes', name: 'notes' }];
    await expect(h.client.notifyRootsListChanged()).resolves.toBe(true);
    await until(() => seen.length === 1, 'the server to ask roots/list again');

    expect(h.notifications('notifications/roots/list_changed')).toHaveLength(1);
    expect(seen[0]?.roots.map((root) => root.name)).toEqual(['project', 'notes']);
    expect(h.checked.violations).toEqual([]);
    await h.client.close();
  });

  it('2026-07-28: nothing to send (the server asks for roots inside each request), resolves false', async () => {
    const h = await harness({
      server: (peer) => modernServer(peer, {}),
      client: { handlers: { roots: () => ({ roots: [] }) } },
    });
    await expect(h.client.notifyRootsListChanged()).resolves.toBe(false);
    expect(h.notifications('notifications/roots/list_changed')).toEqual([]);
    await h.client.close();
  });

  it('refuses without roots.listChanged declared, and sends nothing', async () => {
    const h = await harness({
      server: (peer) => legacyServer(peer, {}),
      client: { handlers: { roots: () => ({ roots: [] }) }, capabilities: { roots: {} } },
    });
    const error = await h.client.notifyRootsListChanged().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CapabilityError);
    expect((error as Error).message).toContain('roots.listChanged');
    expect(h.notifications('notifications/roots/list_changed')).toEqual([]);
    await h.client.close();
  });

  it('before connect: ERR_NOT_CONNECTED', async () => {
    const h = await harness({ server: (peer) => legacyServer(peer, {}), manualConnect: true });
    await expect(h.client.notifyRootsListChanged()).rejects.toMatchObject({ code: 'ERR_NOT_CONNECTED' });
  });
});
