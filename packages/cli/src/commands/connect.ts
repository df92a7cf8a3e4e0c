import { StdioServerTransport } from '@mcpkit/transport-stdio';
import type { Command } from 'commander';
import { createForwardingServer } from '../bridge/forwarding-server';
import { Upstream } from '../bridge/upstream';
import { note } from '../io';
import { parseHeaders, type SessionOptions, targetFetch } from '../session';
import { openTransport, parseTarget } from '../target';
import type { TalkContext } from './talk';

/**
 * `mcpkit connect <url>`: a stdio server for hosts that only start commands (Claude Desktop-style), forwarding
 * everything to a remote HTTP or WebSocket server, signing in with OAuth on first use.
 */
export function registerConnect(program: Command, context: TalkContext): void {
  const { io } = context;
  program
    .command('connect')
    .description('Be a stdio MCP server that forwards everything to a remote HTTP or WebSocket server (OAuth included)')
    .argument('<url>', 'the remote MCP endpoint: http(s):// or ws(s)://')
    .action(async (url: string, _options: unknown, command: Command) => {
      const options = command.optsWithGlobals() as SessionOptions;
      const target = parseTarget(url, []);
      const fetch = targetFetch(io, target, options);
      const headers = parseHeaders(options.header);
      let server: ReturnType<typeof createForwardingServer> | undefined;
      const upstream = new Upstream({
        open: () => openTransport(target, { fetch, headers }),
        protocolVersion: options.protocolVersion,
        onListChanged: (kind) => server?.sendListChanged(kind),
        onResourceUpdated: (uri) => server?.notifyResourceUpdated(uri),
        onLog: (params) => {
          for (const session of server?.sessions ?? [])
            void session.notify('notifications/message', { ...params }).catch(() => {});
        },
        onLost: (reason) =>
          note(
            io,
            `mcpkit connect: lost ${url}${reason ? ` (${reason.message})` : ''}; reconnecting on the next request`,
          ),
      });
      const client = await upstream.client();
      note(io, `mcpkit connect: ${url} (${client.era} ${client.protocolVersion}); serving it on stdio`);
      server = createForwardingServer(
        {
          serverInfo: client.serverInfo ?? { name: 'mcpkit-connect', version: '0.0.0' },
          capabilities: client.serverCapabilities ?? {},
          instructions: client.instructions,
        },
        () => upstream,
        (extension) =>
          note(io, `mcpkit connect: the extension ${extension} is not crossed (the bridge does not know its methods)`),
      );
      const session = await server.connect(
        new StdioServerTransport({ stdin: io.stdin, stdout: io.stdout, stderr: io.stderr }),
      );
      // The host closing stdin ends the bridge.
      await new Promise<void>((resolve) => {
        const done = () => resolve();
        io.stdin.once('end', done);
        io.stdin.once('close', done);
        process.once('SIGTERM', done);
        void session;
      });
      await server.close().catch(() => {});
      await upstream.close();
    });
}
