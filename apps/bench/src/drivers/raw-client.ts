// The floor's client: newline-delimited JSON-RPC on the child's pipes, no SDK, no validation beyond matching ids.
import { spawn } from 'node:child_process';
import { runDriver } from './drive';

await runDriver(async (command, args) => {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, (result: unknown) => void>();
  let nextId = 1;
  let pending: string[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline !== -1) {
      pending.push(chunk.slice(start, newline));
      const message = JSON.parse(pending.join('')) as { id: number; result?: unknown; error?: unknown };
      pending = [];
      waiting.get(message.id)?.(message.result ?? message.error);
      waiting.delete(message.id);
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) pending.push(chunk.slice(start));
  });
  const request = (method: string, params: unknown): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench-raw-client', version: '1.0.0' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const callText = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = (await request('tools/call', { name, arguments: args })) as {
      content?: { type: string; text?: string }[];
    };
    const first = result.content?.[0];
    return first?.type === 'text' ? (first.text ?? '') : '';
  };
  const pid = child.pid;
  if (pid === undefined) throw new Error('raw server did not spawn');
  return {
    pid,
    call: (text) => callText('echo', { text }),
    big: (bytes) => callText('big', { bytes }),
    close: async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
});
