// The floor over stdio: newline-delimited JSON-RPC with no SDK (answers in raw-answer.ts). It ignores notifications,
// which is all the bench's raw client sends.
import { installCpuReport } from './cpu-report';
import { type RawMessage, rawReply } from './raw-answer';

installCpuReport();

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
  const message = JSON.parse(line) as RawMessage;
  if (message.id === undefined) return;
  process.stdout.write(`${rawReply(message)}\n`);
}
