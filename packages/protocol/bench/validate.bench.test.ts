import { readFileSync } from 'node:fs';
import {
  CallToolRequestSchema as V2CallToolRequest,
  CallToolResultSchema as V2CallToolResult,
  ListToolsResultSchema as V2ListToolsResult,
} from '@modelcontextprotocol/core';
import {
  CallToolRequestSchema as V1CallToolRequest,
  CallToolResultSchema as V1CallToolResult,
  ListToolsResultSchema as V1ListToolsResult,
} from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020';
import { Bench } from 'tinybench';
import { describe, expect, it } from 'vitest';
import { getValidators } from '../src/validation/index.js';
import {
  callToolRequest,
  callToolRequest2026,
  callToolResult,
  callToolResult2026,
  listToolsResult,
  listToolsResult2026,
} from './fixtures.js';

// Micro-benchmark of the validation hot path against the official SDKs' zod schemas (v2 `@modelcontextprotocol/core`,
// v1 `@modelcontextprotocol/sdk/types.js`) and, for reference, ajv compiled from the official JSON Schema.
// Not part of the normal test run. Run it with:
//   MCPKIT_BENCH=1 npx vitest run --config packages/protocol/bench/vitest.config.ts

const INNER = 100; // calls per sample, so that one sample is well above the timer resolution

type Check = () => boolean;

function repeated(check: Check): () => void {
  return () => {
    for (let index = 0; index < INNER; index++) if (!check()) throw new Error('benchmark input rejected');
  };
}

function ajvFor(typeName: string) {
  const schema = JSON.parse(
    readFileSync(new URL('../test/fixtures/spec/2025-11-25/schema.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...schema, $id: 'mcp' });
  return ajv.compile({ $ref: `mcp#/$defs/${typeName}` });
}

describe.skipIf(process.env.MCPKIT_BENCH !== '1')('validation micro-benchmark', () => {
  it('ours vs the official SDK zod schemas', async () => {
    const legacy = getValidators('2025-11-25');
    const modern = getValidators('2026-07-28');
    const ajvRequest = ajvFor('CallToolRequest');
    const ajvResult = ajvFor('CallToolResult');
    const ajvList = ajvFor('ListToolsResult');

    const cases: { name: string; contenders: Record<string, Check> }[] = [
      {
        name: 'tools/call request',
        contenders: {
          'mcpkit 2025-11-25': () => legacy.clientRequest(callToolRequest).ok,
          'mcpkit 2026-07-28': () => modern.clientRequest(callToolRequest2026).ok,
          'sdk v2 zod': () => V2CallToolRequest.safeParse(callToolRequest).success,
          'sdk v1 zod': () => V1CallToolRequest.safeParse(callToolRequest).success,
          'ajv (schema.json)': () => ajvRequest(callToolRequest) === true,
        },
      },
      {
        name: 'CallToolResult (1 text block)',
        contenders: {
          'mcpkit 2025-11-25': () => legacy.result('tools/call', callToolResult).ok,
          'mcpkit 2026-07-28': () => modern.result('tools/call', callToolResult2026).ok,
          'sdk v2 zod': () => V2CallToolResult.safeParse(callToolResult).success,
          'sdk v1 zod': () => V1CallToolResult.safeParse(callToolResult).success,
          'ajv (schema.json)': () => ajvResult(callToolResult) === true,
        },
      },
      {
        name: 'tools/list result (10 tools)',
        contenders: {
          'mcpkit 2025-11-25': () => legacy.result('tools/list', listToolsResult).ok,
          'mcpkit 2026-07-28': () => modern.result('tools/list', listToolsResult2026).ok,
          'sdk v2 zod': () => V2ListToolsResult.safeParse(listToolsResult).success,
          'sdk v1 zod': () => V1ListToolsResult.safeParse(listToolsResult).success,
          'ajv (schema.json)': () => ajvList(listToolsResult) === true,
        },
      },
    ];

    const rows: Record<string, string>[] = [];
    for (const { name, contenders } of cases) {
      for (const check of Object.values(contenders)) expect(check()).toBe(true);
      const bench = new Bench({ time: 800, warmupTime: 200 });
      for (const [contender, check] of Object.entries(contenders)) bench.add(contender, repeated(check));
      await bench.run();
      const opsPerSecond = new Map<string, number>();
      for (const task of bench.tasks) {
        const result = task.result;
        if (result.state !== 'completed') throw new Error(`${name} / ${task.name}: ${result.state}`);
        opsPerSecond.set(task.name, (1000 / result.period) * INNER);
      }
      const ours = opsPerSecond.get('mcpkit 2025-11-25')!;
      for (const [contender, ops] of opsPerSecond) {
        rows.push({
          message: name,
          validator: contender,
          'ops/s': Math.round(ops).toLocaleString('en-US'),
          // > 1: mcpkit (2025-11-25) validates that many times more messages per second than this contender.
          'mcpkit 2025-11-25 ÷ this': (ours / ops).toFixed(2),
        });
      }
    }
    console.table(rows);
  }, 120_000);
});
