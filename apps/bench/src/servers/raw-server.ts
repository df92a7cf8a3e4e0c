// The floor: newline-delimited JSON-RPC over stdio with no SDK and no validation beyond "is it an echo call". It
// answers `initialize`, `tools/list` and `tools/call` minimally and ignores notifications, which is all the bench's
// raw client sends. It tells how close an SDK gets to what Node itself does here.
import { installCpuReport } from './cpu-report';

installCpuReport();

interface Message {
  id?: number | string;
  method?: string;
  params?: { name?: string; arguments?: { text?: unknown } };
}

const ECHO_TOOL = {
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

function answer(message: Message): unknown {
  switch (message.method) {
    case 'initialize':
      return {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'bench-raw', version: '1.0.0' },
      };
    case 'tools/list':
      return { tools: [ECHO_TOOL] };
    case 'tools/call': {
      const text = message.params?.arguments?.text;
      return { content: [{ type: 'text', text: typeof text === 'string' ? text : '' }] };
    }
    default:
      return undefined;
  }
}

// Chunks are kept as a list and joined once a newline arrives, so a 10 MB line costs one concatenation.
let pending: string[] = [];
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  let start = 0;
  let newline = chunk.indexOf('\n');
  while (newline !== -1) {
    pending.push(chunk.slice(start, newline));
    const line = pending.join('');
    pending = [];
    if (line.length > 0) handle(line);
    start = newline + 1;
    newline = chunk.indexOf('\n', start);
  }
  if (start < chunk.length) pending.push(chunk.slice(start));
});
process.stdin.on('end', () => process.exit(0));

function handle(line: string): void {
  const message = JSON.parse(line) as Message;
  if (message.id === undefined) return;
  const result = answer(message);
  const reply =
    result === undefined
      ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
      : { jsonrpc: '2.0', id: message.id, result };
  process.stdout.write(`${JSON.stringify(reply)}\n`);
}
