import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';

// An extension: advertised in capabilities.extensions, its methods routed on every path and in both eras, its
// middleware installed. The client sends its methods with client.request().
const server = new McpServer({ name: 'weather', version: '1.0.0' });
const alerts = ['storm over the Channel'];
server.extend({
  id: 'com.example/alerts',
  declaration: { regions: ['eu'] },
  methods: {
    'com.example/alerts/list': (params: { region?: string }) => ({ region: params.region ?? 'eu', alerts }),
  },
  middleware: (ctx, next) => {
    if (ctx.method.startsWith('com.example/alerts/')) console.log(`extension saw ${ctx.method} (${ctx.era})`);
    return next();
  },
});

for (const era of ['modern', 'legacy'] as const) {
  const [clientSide, serverSide] = createLinkedTransports();
  await server.connect(serverSide);
  const client = new Client({ name: 'demo', version: '1.0.0' });
  client.extend({ id: 'com.example/alerts' });
  await client.connect(clientSide, { era });
  console.log('declared:', JSON.stringify(client.serverCapabilities?.extensions?.['com.example/alerts']));
  const result = await client.request('com.example/alerts/list', { region: 'eu' });
  console.log('alerts:', JSON.stringify(result.alerts));
  await client.close();
}
