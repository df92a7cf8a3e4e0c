// The mcpkit quickstart demo (`npm run demo` at the repository root): a client starts the trattoria server
// (src/server.ts) as a child process, talks MCP to it over stdio, and says what it sends and what comes back.
// It does it twice: first in the 2026-07-28 era, then pinned to 2025-11-25, the last revision of the `initialize`
// era, so you can see what changes between them (very little, for your code). It checks itself: a step that does not
// behave as described stops the demo with a non-zero exit.
import type { Client, ConnectOptions, Era } from '@mcpkit/client';
import { connectToTrattoria, type RecordingStdioTransport, type SentMessage } from './client';

// The demo checks itself: a step that does not behave as described stops it with a non-zero exit.
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`demo check failed: ${what}`);
}

let stepNumber = 0;
const step = (title: string) => console.log(`\n ${String(++stepNumber).padStart(2)}. ${title}`);
const sent = (text: string) => console.log(`     → ${text}`);
const got = (text: string) => console.log(`     ← ${text}`);
const note = (text: string) => console.log(`       ${text}`);

const json = (value: unknown) => JSON.stringify(value);
const textOf = (result: { content?: ReadonlyArray<{ type: string; text?: string }> }) =>
  (result.content ?? []).map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(' ');
const requestsOf = (messages: readonly SentMessage[]) =>
  messages.filter(
    (message): message is SentMessage & { method: string; params?: Record<string, unknown> } =>
      'method' in message && 'id' in message,
  );

/** What one era's run expects. */
interface EraRun {
  title: string;
  connect: ConnectOptions;
  era: Era;
  protocolVersion: string;
}

async function runEra(run: EraRun): Promise<void> {
  console.log(`\n━━ ${run.title}`);
  // How each elicitation reached the client, recorded by the handler below.
  const asked: string[] = [];

  step('Start the server and connect');
  const { client, transport } = await connectToTrattoria({
    connect: run.connect,
    // The client's answer to the server's question. The same handler serves both eras; `context.era` says how the
    // question arrived.
    elicitation: (params, context) => {
      const how =
        context.era === 'modern'
          ? `as input request "${context.key}" inside an input_required result of ${context.forMethod}`
          : `as a server→client request elicitation/create (id ${String(context.requestId)}), while tools/call waits`;
      asked.push(context.era);
      got(`the server asks: "${params.message}"`);
      note(`(it arrived ${how})`);
      sent('the user answers: name "Ada", 4 people');
      return { action: 'accept', content: { name: 'Ada', partySize: 4 } };
    },
  });
  try {
    await walkThrough(client, transport, run, asked);
  } finally {
    await client.close();
  }

  step('Close');
  note(`the client closed the server's stdin; the server exited (pid ${transport.pid}).`);
  // console.log in the server went to its stderr (redirectConsoleToStderr), which the client keeps for diagnostics.
  const serverLog = transport.stderrTail.trim().split('\n');
  for (const line of serverLog) note(`server's stderr: ${line}`);
  check(
    serverLog.some((line) => line.includes('ready on stdio')),
    "the server's console.log went to stderr",
  );
}

async function walkThrough(
  client: Client,
  transport: RecordingStdioTransport,
  run: EraRun,
  asked: string[],
): Promise<void> {
  const firstRequests = transport.sent.map((message) => ('method' in message ? message.method : 'a response'));
  sent(`started the server (pid ${transport.pid}); sent ${firstRequests.join(', then ')}`);
  got(`${client.serverInfo?.name} ${client.serverInfo?.version} speaks ${client.protocolVersion} (era: ${client.era})`);
  check(
    client.era === run.era && client.protocolVersion === run.protocolVersion,
    `connected in ${run.protocolVersion}`,
  );
  if (run.era === 'modern') {
    note('2026-07-28 has no handshake: every request carries the version and capabilities in its _meta.');
    check(json(firstRequests) === json(['server/discover']), 'a modern connection starts with server/discover');
  } else {
    note('The initialize era starts with a handshake; the session remembers what was agreed.');
    check(
      json(firstRequests) === json(['initialize', 'notifications/initialized']),
      'a legacy connection starts with the initialize handshake',
    );
  }

  step('See what the server offers');
  const tools = await client.listAllTools();
  const resources = await client.listAllResources();
  const templates = await client.listAllResourceTemplates();
  const prompts = await client.listAllPrompts();
  got(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
  got(`resources: ${resources.map((resource) => resource.uri).join(', ')}`);
  got(`resource templates: ${templates.map((template) => template.uriTemplate).join(', ')}`);
  got(`prompts: ${prompts.map((prompt) => prompt.name).join(', ')}`);
  check(tools.length === 4 && prompts.length === 1 && templates.length === 1, 'four tools, one template, one prompt');
  check(resources.length === 4, 'the menu and the three dishes the template lists');

  step('Call a plain tool');
  sent('tools/call opening-hours {"day":"friday"}');
  const hours = await client.callTool({ name: 'opening-hours', arguments: { day: 'friday' } });
  got(textOf(hours));
  check(textOf(hours).includes('19:00–23:30'), 'the opening hours came back');

  step('Call a tool with typed output (outputSchema)');
  sent('tools/call split-bill {"total":120,"people":4}');
  const bill = await client.callTool({ name: 'split-bill', arguments: { total: 120, people: 4 } });
  got(`structuredContent ${json(bill.structuredContent)}`);
  note('(the default tip of 10% came from the schema; the client checked the result against the outputSchema)');
  check(json(bill.structuredContent) === json({ perPerson: 33, tip: 12, totalWithTip: 132 }), 'the bill was split');

  step('Call a slow tool and follow its progress');
  sent('tools/call prepare-order {"dishes":["margherita","carbonara","tiramisu"]} (asking for progress)');
  let updates = 0;
  const order = await client.callTool(
    { name: 'prepare-order', arguments: { dishes: ['margherita', 'carbonara', 'tiramisu'] } },
    {
      onProgress: ({ progress, total, message }) => {
        updates++;
        got(`progress ${progress}/${total}: ${message}`);
      },
    },
  );
  got(textOf(order));
  check(updates === 3 && textOf(order).startsWith('Order ready'), 'three progress updates, then the result');

  step('Call a tool that asks the user a question (elicitation)');
  const before = transport.sent.length;
  sent('tools/call book-table {"date":"2026-08-07","time":"20:00"}');
  const booking = await client.callTool({ name: 'book-table', arguments: { date: '2026-08-07', time: '20:00' } });
  got(textOf(booking));
  check(textOf(booking) === 'Booked: Ada, 4 people, 2026-08-07 at 20:00.', 'the booking used the answer');
  check(asked.length === 1 && asked[0] === run.era, `the question arrived the ${run.era} way`);
  const during = transport.sent.slice(before);
  const calls = requestsOf(during).filter((message) => message.method === 'tools/call');
  if (run.era === 'modern') {
    const retry = calls[1]?.params;
    note(`on the wire: tools/call was sent ${calls.length} times; the second carried inputResponses and requestState`);
    note('(the server keeps no state between the two: requestState, signed by the server, carries it)');
    check(
      calls.length === 2 && retry?.inputResponses !== undefined && retry.requestState !== undefined,
      'the client retried the call with the answer',
    );
  } else {
    const answers = during.filter((message) => 'result' in message);
    note(`on the wire: tools/call was sent once; the client answered the server's request with a response`);
    check(calls.length === 1 && answers.length === 1, 'one call, one answer to the server');
  }

  step('Read a resource');
  sent('resources/read trattoria://menu');
  const menu = await client.readResource({ uri: 'trattoria://menu' });
  const menuText = (menu.contents[0] as { text?: string }).text ?? '';
  got(`${menu.contents[0]?.mimeType}: ${menuText.split('\n').join(' | ')}`);
  check(menuText.startsWith('# Menu'), 'the menu came back');

  step('Read a resource through its template');
  sent('resources/read trattoria://dishes/carbonara   (matches trattoria://dishes/{dish})');
  const dish = await client.readResource({ uri: 'trattoria://dishes/carbonara' });
  const dishText = (dish.contents[0] as { text?: string }).text ?? '';
  got(dishText);
  check(JSON.parse(dishText).price === 14, 'the template handler got dish=carbonara');
  sent('resources/read trattoria://dishes/lasagne');
  const missing = await client.readResource({ uri: 'trattoria://dishes/lasagne' }).catch((error: unknown) => error);
  const { code, message } = missing as { code?: number; message?: string };
  got(`error ${code}: ${message}`);
  note(`("not found" is ${run.era === 'modern' ? '-32602 in 2026-07-28' : '-32002 before 2026-07-28'})`);
  check(code === (run.era === 'modern' ? -32602 : -32002), 'a missing resource is the era’s not-found error');

  step('Get a prompt');
  sent('prompts/get pair-wine {"dish":"carbonara"}');
  const prompt = await client.getPrompt({ name: 'pair-wine', arguments: { dish: 'carbonara' } });
  const first = prompt.messages[0];
  got(`${first?.role}: ${first?.content.type === 'text' ? first.content.text : '?'}`);
  check(first?.content.type === 'text' && first.content.text.includes('carbonara'), 'the prompt was filled in');
}

const started = Date.now();
console.log('mcpkit quickstart: a client starts an MCP server (src/server.ts) and talks to it over stdio.');

await runEra({
  title: 'Era 1: 2026-07-28 — the client connects with era "auto": it tries server/discover first',
  connect: {},
  era: 'modern',
  protocolVersion: '2026-07-28',
});

stepNumber = 0;
await runEra({
  title: 'Era 2: 2025-11-25 — the client is pinned to it: { protocolVersion: "2025-11-25" } sends initialize',
  connect: { protocolVersion: '2025-11-25' },
  era: 'legacy',
  protocolVersion: '2025-11-25',
});

console.log(`\nDone in ${Date.now() - started} ms: every step behaved as described, in both eras.`);

// Where to go from here: every path is relative to the repository root (the quickstart test checks they exist).
console.log(`
What next
  Start your own server   copy apps/quickstart/src/server.ts (apps/quickstart/README.md, "Copy it into your own project")
  Use mcpkit elsewhere    README.md, "Use mcpkit in your own project": npm run pack, then npm install the tarballs
  Other transports        apps/http-express (Streamable HTTP), apps/http-oauth (with OAuth), apps/websocket
  The server API          packages/server/README.md: tools, resources, prompts, schemas, what is validated
  The client API          packages/client/README.md: options, typed results, input requests, caching, subscriptions
  stdio in detail         packages/transport-stdio/README.md`);
