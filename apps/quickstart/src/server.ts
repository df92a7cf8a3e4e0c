// A small but real MCP server: the booking desk of a trattoria. Copy it as the start of your own.
//
// It speaks MCP over stdio: a client (an IDE, a desktop app, `src/client.ts`) starts this file as a child process and
// writes JSON-RPC messages to its stdin, one per line; the answers leave on stdout. Try it alone with
// `npx tsx src/server.ts`, then paste a request (see README.md).
//
// One definition serves both protocol eras: 2026-07-28 (stateless, `server/discover`) and the `initialize` era
// (2024-11-05 … 2025-11-25). The server decides per connection from what the client sends first; nothing here
// depends on it.

import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { McpServer, ResourceTemplate } from '@mcpkit/server';
import { redirectConsoleToStderr, StdioServerTransport } from '@mcpkit/transport-stdio';
import { z } from 'zod';

const server = new McpServer(
  { name: 'trattoria', version: '1.0.0' },
  // Clients may hand the instructions to their model: say what the server is for, in one or two sentences.
  { instructions: 'The booking desk of Trattoria Da Marco: opening hours, the menu, orders and table bookings.' },
);

// Data a real server would fetch from a database.
const DISHES: Record<string, { name: string; price: number; vegetarian: boolean }> = {
  carbonara: { name: 'Spaghetti alla carbonara', price: 14, vegetarian: false },
  margherita: { name: 'Pizza margherita', price: 11, vegetarian: true },
  tiramisu: { name: 'Tiramisù', price: 7, vegetarian: true },
};
const HOURS: Record<string, string> = {
  monday: 'closed',
  tuesday: '12:00–14:30, 19:00–22:30',
  wednesday: '12:00–14:30, 19:00–22:30',
  thursday: '12:00–14:30, 19:00–22:30',
  friday: '12:00–14:30, 19:00–23:30',
  saturday: '19:00–23:30',
  sunday: '12:00–15:00',
};

// ---------------------------------------------------------------- tools

// A plain tool whose input is a plain JSON Schema. Written inline, TypeScript reads the handler's argument types from
// it (`day: string`, required), with no schema library at all and no `as const`.
server.registerTool(
  'opening-hours',
  {
    description: 'When the trattoria is open on a given day',
    inputSchema: {
      type: 'object',
      properties: { day: { type: 'string', enum: Object.keys(HOURS) } },
      required: ['day'],
    },
    // Hints for clients deciding whether to ask the user before calling: this tool changes nothing.
    annotations: { readOnlyHint: true },
  },
  ({ day }) => ({
    content: [{ type: 'text', text: `On ${day} we are ${HOURS[day] === 'closed' ? '' : 'open '}${HOURS[day]}.` }],
  }),
);

// Typed input and typed output with zod. The outputSchema is published in tools/list, so the client (and the model)
// knows the shape of structuredContent; the server checks every result against it before sending.
server.registerTool(
  'split-bill',
  {
    description: 'Split a bill between people, tip included',
    inputSchema: z.object({
      total: z.number().positive().describe('The bill, in euros'),
      people: z.number().int().min(1).max(50),
      tipPercent: z.number().min(0).max(30).default(10),
    }),
    outputSchema: z.object({ perPerson: z.number(), tip: z.number(), totalWithTip: z.number() }),
  },
  ({ total, people, tipPercent }) => {
    const tip = round(total * (tipPercent / 100));
    const perPerson = round((total + tip) / people);
    return {
      // Text for clients and models that ignore structuredContent; older clients only read this.
      content: [{ type: 'text', text: `${people} people pay €${perPerson} each (tip €${tip})` }],
      structuredContent: { perPerson, tip, totalWithTip: round(total + tip) },
    };
  },
);

// A slow tool that reports progress. `ctx.progress` sends nothing unless the client asked for progress, so calling it
// unconditionally is fine; each update also restarts the client's request timeout.
server.registerTool(
  'prepare-order',
  {
    description: 'Send an order to the kitchen and follow it until it is ready',
    inputSchema: z.object({ dishes: z.array(z.enum(Object.keys(DISHES) as [string, ...string[]])).min(1) }),
  },
  async ({ dishes }, ctx) => {
    for (const [index, dish] of dishes.entries()) {
      await sleep(80, undefined, { signal: ctx.signal }); // the kitchen at work; stops early if the client cancels
      await ctx.progress(index + 1, dishes.length, `${DISHES[dish]!.name} is ready`);
    }
    return { content: [{ type: 'text', text: `Order ready: ${dishes.join(', ')}` }] };
  },
);

// A tool that asks the user a question mid-call (elicitation). The same `ctx.elicit` works in both eras: the legacy
// era sends the client an `elicitation/create` request; 2026-07-28 answers the call with `input_required` and the
// client retries it with the answer, running this handler again from the top. So: no side effects before the last
// ask (here the booking is made only once the answer is in).
server.registerTool(
  'book-table',
  {
    description: 'Book a table; asks the user for the name and the party size',
    inputSchema: z.object({ date: z.string().describe('YYYY-MM-DD'), time: z.string().describe('HH:MM') }),
  },
  async ({ date, time }, ctx) => {
    const answer = await ctx.elicit({
      message: `A table on ${date} at ${time}: for whom, and how many people?`,
      requestedSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', title: 'Name for the booking' },
          partySize: { type: 'integer', title: 'People', minimum: 1, maximum: 12 },
        },
        required: ['name', 'partySize'],
      },
    });
    if (answer.action !== 'accept') {
      return { content: [{ type: 'text', text: `No booking made (the user chose "${answer.action}").` }] };
    }
    // The answer comes from the client: check it as you would any input.
    const { name, partySize } = answer.content ?? {};
    if (typeof name !== 'string' || typeof partySize !== 'number') {
      return { isError: true, content: [{ type: 'text', text: 'The answer lacked a name or a party size.' }] };
    }
    console.log(`booked: ${name}, ${partySize} people, ${date} ${time}`); // goes to stderr (see the top)
    return { content: [{ type: 'text', text: `Booked: ${name}, ${partySize} people, ${date} at ${time}.` }] };
  },
);

// ---------------------------------------------------------------- resources

// A fixed resource: one URI, read whole. Resources are data the client may show or put in a model's context.
server.registerResource('menu', 'trattoria://menu', { title: 'Menu', mimeType: 'text/markdown' }, (uri) => ({
  contents: [
    {
      uri,
      mimeType: 'text/markdown',
      text: ['# Menu', ...Object.values(DISHES).map((dish) => `- ${dish.name}: €${dish.price}`)].join('\n'),
    },
  ],
}));

// A resource template: a family of URIs. `list` makes its members show up in resources/list, and `complete` lets
// clients autocomplete the `{dish}` variable.
server.registerResource(
  'dish',
  new ResourceTemplate('trattoria://dishes/{dish}', {
    list: () => Object.keys(DISHES).map((id) => ({ uri: `trattoria://dishes/${id}`, name: DISHES[id]!.name })),
    complete: { dish: (value) => Object.keys(DISHES).filter((id) => id.startsWith(value)) },
  }),
  { title: 'A dish', mimeType: 'application/json' },
  (uri, { dish }) => {
    const found = DISHES[String(dish)];
    // The URI fits the template but names nothing: returning undefined answers "resource not found" with the code of
    // the client's revision (-32602 in 2026-07-28, -32002 before). A thrown error would reach the client as -32603.
    if (found === undefined) return undefined;
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id: dish, ...found }) }] };
  },
);

// ---------------------------------------------------------------- prompts

// A prompt is a message template the user picks in the client (often as a slash command); the client fills in the
// arguments and sends the messages to its model.
server.registerPrompt(
  'pair-wine',
  {
    description: 'Ask for a wine to go with a dish',
    argsSchema: z.object({ dish: z.string().describe('A dish from the menu') }),
  },
  ({ dish }) => ({
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: `Suggest an Italian wine to go with ${DISHES[dish]?.name ?? dish}.` },
      },
    ],
  }),
);

// ---------------------------------------------------------------- start

// Run as a program (a client starts this file), it serves stdio. Imported, it only defines the server: another
// transport can serve it (apps/custom-transport serves it over a Unix socket).
export { server };

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // stdout belongs to the protocol: a stray console.log there would corrupt the stream. After this call console.log
  // writes to stderr, which clients show as the server's log.
  redirectConsoleToStderr();
  await server.connect(new StdioServerTransport());
  console.log('trattoria: ready on stdio'); // stderr, thanks to redirectConsoleToStderr()
}

function round(euros: number): number {
  return Math.round(euros * 100) / 100;
}
