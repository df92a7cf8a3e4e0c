// Typical messages for the validation micro-benchmark (and the smoke test that keeps them valid): a tools/call
// request with a few arguments, a tool result with one text block, a tools/list result with 10 tools. Each in the
// 2025-11-25 shape (which the official SDK schemas also read) and the 2026-07-28 shape.

const tools = Array.from({ length: 10 }, (_, index) => ({
  name: `tool_${index}`,
  title: `Tool ${index}`,
  description: `Does thing number ${index} with the given input`,
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for' },
      limit: { type: 'integer', minimum: 1, maximum: 100 },
      verbose: { type: 'boolean' },
    },
    required: ['query'],
  },
  annotations: { readOnlyHint: index % 2 === 0, openWorldHint: false },
}));

export const callToolRequest = {
  jsonrpc: '2.0',
  id: 42,
  method: 'tools/call',
  params: { name: 'get_weather', arguments: { city: 'Paris', units: 'metric', days: 3 } },
} as const;

export const callToolResult = { content: [{ type: 'text', text: 'Sunny, 21°C, light breeze from the west' }] } as const;

export const listToolsResult = { tools } as const;

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-client', version: '1.0.0' },
};

export const callToolRequest2026 = {
  ...callToolRequest,
  params: { ...callToolRequest.params, _meta: meta },
} as const;

export const callToolResult2026 = { ...callToolResult, resultType: 'complete' } as const;

export const listToolsResult2026 = {
  ...listToolsResult,
  resultType: 'complete',
  ttlMs: 60_000,
  cacheScope: 'public',
} as const;
