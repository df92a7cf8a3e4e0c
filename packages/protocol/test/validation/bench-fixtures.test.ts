import { expect, it } from 'vitest';
import {
  callToolRequest,
  callToolRequest2026,
  callToolResult,
  callToolResult2026,
  listToolsResult,
  listToolsResult2026,
} from '../../bench/fixtures.js';
import { getValidators } from '../../src/validation/index.js';

// The benchmark (bench/validate.bench.test.ts, not part of the normal run) must measure the success path.
it('the benchmark messages are valid in the revision they are written for', () => {
  const legacy = getValidators('2025-11-25');
  const modern = getValidators('2026-07-28');
  expect(legacy.clientRequest(callToolRequest)).toEqual({ ok: true });
  expect(legacy.result('tools/call', callToolResult)).toEqual({ ok: true });
  expect(legacy.result('tools/list', listToolsResult)).toEqual({ ok: true });
  expect(modern.clientRequest(callToolRequest2026)).toEqual({ ok: true });
  expect(modern.result('tools/call', callToolResult2026)).toEqual({ ok: true });
  expect(modern.result('tools/list', listToolsResult2026)).toEqual({ ok: true });
  expect(listToolsResult.tools).toHaveLength(10);
});
