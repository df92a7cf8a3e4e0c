import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTapLog, formatViolations, progressBeforeSlowResult, readTapLog } from './wire-check';

// The wire check must catch what it claims to: a clean log passes, each broken message is named with its sender,
// revision and method. Logs are written the way fixtures/wire-tap.mjs writes them (`<pid> > line` / `<pid> < line`).

const dir = mkdtempSync(join(tmpdir(), 'wire-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function tapLog(entries: Array<[pid: number, direction: '>' | '<', message: unknown]>): string {
  const file = join(dir, `log-${++files}`);
  const text = entries.map(([pid, direction, message]) =>
    typeof message === 'string' ? `${pid} ${direction} ${message}` : `${pid} ${direction} ${JSON.stringify(message)}`,
  );
  writeFileSync(file, `${text.join('\n')}\n`);
  return file;
}

const initialize = (id: number, protocolVersion: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
});
const initializeResult = (id: number, protocolVersion: string) => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } },
});
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
};

describe('checkTapLog', () => {
  it('passes a clean legacy exchange and counts its messages', async () => {
    const file = tapLog([
      [1, '>', initialize(1, '2025-06-18')],
      [1, '<', initializeResult(1, '2025-06-18')],
      [1, '>', { jsonrpc: '2.0', method: 'notifications/initialized' }],
      [1, '>', { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
      [1, '<', { jsonrpc: '2.0', id: 2, result: { tools: [] } }],
    ]);
    const check = await checkTapLog(file, 0);
    expect(check.violations).toEqual([]);
    expect(check.messages).toBe(5);
  });

  it('names an invalid result by sender, revision and the request it answers', async () => {
    const file = tapLog([
      [1, '>', initialize(1, '2025-06-18')],
      [1, '<', initializeResult(1, '2025-06-18')],
      [1, '>', { jsonrpc: '2.0', id: 2, method: 'tools/list' }],
      [1, '<', { jsonrpc: '2.0', id: 2, result: { tools: [{ description: 'no name' }] } }],
    ]);
    const { violations } = await checkTapLog(file, 0);
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ sender: 'server', revision: '2025-06-18', what: 'result for tools/list' });
    expect(formatViolations(violations)).toContain('server sent an invalid 2025-06-18 message (result for tools/list)');
  });

  it('checks a 2026-07-28 connection against 2026-07-28 (a result without resultType is invalid there)', async () => {
    const file = tapLog([
      [7, '>', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } }],
      [7, '<', { jsonrpc: '2.0', id: 1, result: { tools: [] } }],
    ]);
    const { violations } = await checkTapLog(file, 0);
    expect(violations).toEqual([
      expect.objectContaining({ sender: 'server', revision: '2026-07-28', what: 'result for tools/list' }),
    ]);
  });

  it('flags a client message and a line that is not JSON, and keeps connections apart', async () => {
    const file = tapLog([
      [1, '>', initialize(1, '2024-11-05')],
      [2, '>', 'not json'],
      [1, '<', initializeResult(1, '2024-11-05')],
      [1, '>', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } }],
    ]);
    const check = await checkTapLog(file, 0);
    expect([...check.connections.keys()]).toEqual(['1', '2']);
    expect(check.violations.map(({ connection, sender, what }) => ({ connection, sender, what }))).toEqual([
      { connection: '1', sender: 'client', what: 'tools/call' },
      { connection: '2', sender: 'client', what: 'not JSON' },
    ]);
  });
});

describe('progressBeforeSlowResult', () => {
  it('counts the progress the server sent before the completed slow result', () => {
    const progress = (n: number) => ({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: n, total: 3 },
    });
    const file = tapLog([
      [1, '<', progress(1)],
      [1, '<', progress(2)],
      [1, '<', { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'completed 3 steps' }] } }],
      [1, '<', progress(3)],
    ]);
    expect(progressBeforeSlowResult(readTapLog(file))).toBe(2);
  });
});
