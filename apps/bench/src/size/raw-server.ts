// The floor's minimal server for the size metric: NDJSON JSON-RPC by hand answering `initialize`, `tools/list` and an
// `echo` `tools/call`, no SDK and no validation.
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  pending += chunk;
  let newline = pending.indexOf('\n');
  while (newline !== -1) {
    const line = pending.slice(0, newline);
    pending = pending.slice(newline + 1);
    if (line.length > 0) handle(JSON.parse(line));
    newline = pending.indexOf('\n');
  }
});

function handle(message: { id?: number | string; method?: string; params?: { arguments?: { text?: string } } }): void {
  if (message.id === undefined) return;
  let result: unknown;
  if (message.method === 'initialize')
    result = { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'size', version: '1' } };
  else if (message.method === 'tools/list')
    result = { tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] };
  else if (message.method === 'tools/call')
    result = { content: [{ type: 'text', text: message.params?.arguments?.text }] };
  const reply = result === undefined ? { error: { code: -32601, message: 'Method not found' } } : { result };
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, ...reply })}\n`);
}
