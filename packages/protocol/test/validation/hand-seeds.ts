// Realistic, hand-written messages for the revisions without official examples (the 2026-07-28 examples are read from
// the fixtures). Each seed is offered to every revision that has a type of that name: the official schema decides
// whether it is valid there, so a 2024 seed also tests that 2026 rejects it (and why).

export interface HandSeed {
  readonly typeName: string;
  readonly value: unknown;
}

const clientInfo = { name: 'example-client', version: '1.2.0' };
const serverInfo = { name: 'example-server', version: '0.9.1' };
const text = { type: 'text', text: 'Sunny, 21°C' };
const image = {
  type: 'image',
  data: 'iVBORw0KGgo=',
  mimeType: 'image/png',
  annotations: { audience: ['user'], priority: 0.4 },
};
const audio = { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' };
const embedded = {
  type: 'resource',
  resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' },
};
const blob = { uri: 'file:///logo.png', mimeType: 'image/png', blob: 'iVBORw0KGgo=' };
const link = {
  type: 'resource_link',
  uri: 'file:///report.pdf',
  name: 'report',
  mimeType: 'application/pdf',
  size: 2048,
};
const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, units: { type: 'string', enum: ['metric', 'imperial'] } },
    required: ['city'],
  },
};
const task = {
  taskId: 'task-7',
  status: 'working',
  statusMessage: 'fetching',
  createdAt: '2025-11-25T10:00:00Z',
  lastUpdatedAt: '2025-11-25T10:00:05Z',
  ttl: 60000,
  pollInterval: 500,
};

export const HAND_SEEDS: readonly HandSeed[] = [
  {
    typeName: 'InitializeRequest',
    value: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2024-11-05',
        capabilities: { roots: { listChanged: true }, sampling: {}, experimental: { 'x-trace': { on: true } } },
        clientInfo,
      },
    },
  },
  {
    typeName: 'InitializeResult',
    value: {
      protocolVersion: '2025-06-18',
      capabilities: {
        logging: {},
        completions: {},
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: false },
      },
      serverInfo: { ...serverInfo, title: 'Example' },
      instructions: 'Use get_weather for weather questions.',
    },
  },
  { typeName: 'InitializedNotification', value: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  { typeName: 'PingRequest', value: { jsonrpc: '2.0', id: 'ping-1', method: 'ping' } },
  {
    typeName: 'CallToolRequest',
    value: {
      jsonrpc: '2.0',
      id: 12,
      method: 'tools/call',
      params: { name: 'get_weather', arguments: { city: 'Paris', units: 'metric' }, _meta: { progressToken: 'p-12' } },
    },
  },
  { typeName: 'CallToolResult', value: { content: [text, image, embedded], isError: false } },
  { typeName: 'CallToolResult', value: { content: [text, audio, link], structuredContent: { temperature: 21 } } },
  { typeName: 'ListToolsRequest', value: { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'c1' } } },
  {
    typeName: 'ListToolsResult',
    value: {
      tools: [
        weatherTool,
        {
          name: 'delete_file',
          title: 'Delete file',
          inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
          outputSchema: { type: 'object', properties: { deleted: { type: 'boolean' } }, required: ['deleted'] },
          annotations: { destructiveHint: true, idempotentHint: true, readOnlyHint: false, openWorldHint: false },
          icons: [{ src: 'https://example.com/trash.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
          execution: { taskSupport: 'optional' },
        },
      ],
      nextCursor: 'page-2',
    },
  },
  {
    typeName: 'ReadResourceResult',
    value: { contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' }, blob] },
  },
  {
    typeName: 'ListResourcesResult',
    value: {
      resources: [{ uri: 'file:///a.txt', name: 'a.txt', description: 'A file', mimeType: 'text/plain', size: 5 }],
    },
  },
  {
    typeName: 'ListResourceTemplatesResult',
    value: { resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files', mimeType: 'text/plain' }] },
  },
  {
    typeName: 'GetPromptResult',
    value: {
      description: 'Code review',
      messages: [
        { role: 'user', content: text },
        { role: 'assistant', content: embedded },
      ],
    },
  },
  {
    typeName: 'ListPromptsResult',
    value: {
      prompts: [{ name: 'review', description: 'Review code', arguments: [{ name: 'code', required: true }] }],
    },
  },
  {
    typeName: 'CompleteRequest',
    value: {
      jsonrpc: '2.0',
      id: 9,
      method: 'completion/complete',
      params: {
        ref: { type: 'ref/resource', uri: 'file:///{path}' },
        argument: { name: 'path', value: 'sr' },
        context: { arguments: { root: '/home' } },
      },
    },
  },
  { typeName: 'CompleteResult', value: { completion: { values: ['src', 'srv'], total: 2, hasMore: false } } },
  {
    typeName: 'CreateMessageRequest',
    value: {
      jsonrpc: '2.0',
      id: 'srv-1',
      method: 'sampling/createMessage',
      params: {
        messages: [{ role: 'user', content: text }],
        maxTokens: 200,
        temperature: 0.2,
        stopSequences: ['\n\n'],
        systemPrompt: 'Be brief.',
        includeContext: 'thisServer',
        modelPreferences: { hints: [{ name: 'claude' }], costPriority: 0.3, speedPriority: 0.8 },
        metadata: { requestSource: 'test' },
      },
    },
  },
  {
    typeName: 'CreateMessageResult',
    value: { role: 'assistant', content: text, model: 'claude-x', stopReason: 'endTurn' },
  },
  { typeName: 'ListRootsResult', value: { roots: [{ uri: 'file:///home/me/project', name: 'project' }] } },
  {
    typeName: 'ProgressNotification',
    value: {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p-12', progress: 50, total: 100, message: 'half way' },
    },
  },
  {
    typeName: 'LoggingMessageNotification',
    value: {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'warning', logger: 'db', data: { query: 'select 1', ms: 1200 } },
    },
  },
  {
    typeName: 'CancelledNotification',
    value: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 12, reason: 'user abort' } },
  },
  {
    typeName: 'SetLevelRequest',
    value: { jsonrpc: '2.0', id: 4, method: 'logging/setLevel', params: { level: 'debug' } },
  },
  {
    typeName: 'JSONRPCError',
    value: { jsonrpc: '2.0', id: 12, error: { code: -32602, message: 'Unknown tool', data: { tool: 'x' } } },
  },
  { typeName: 'JSONRPCErrorResponse', value: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } } },
  {
    typeName: 'JSONRPCBatchRequest',
    value: [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ],
  },
  {
    typeName: 'JSONRPCBatchResponse',
    value: [
      { jsonrpc: '2.0', id: 1, result: { tools: [] } },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
    ],
  },
  {
    typeName: 'ElicitRequest',
    value: {
      jsonrpc: '2.0',
      id: 'e-1',
      method: 'elicitation/create',
      params: {
        message: 'Tell us about you',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Name', minLength: 1, maxLength: 50 },
            email: { type: 'string', format: 'email' },
            age: { type: 'integer', minimum: 0, maximum: 150 },
            subscribe: { type: 'boolean', default: false },
            plan: { type: 'string', enum: ['free', 'pro'], enumNames: ['Free', 'Pro'] },
          },
          required: ['name'],
        },
      },
    },
  },
  { typeName: 'ElicitResult', value: { action: 'accept', content: { name: 'Ada', age: 36, subscribe: true } } },
  {
    typeName: 'ElicitRequestURLParams',
    value: { mode: 'url', message: 'Sign in', url: 'https://example.com/login', elicitationId: 'el-1' },
  },
  {
    typeName: 'CallToolRequest',
    value: {
      jsonrpc: '2.0',
      id: 13,
      method: 'tools/call',
      params: { name: 'long_job', arguments: {}, task: { ttl: 60000 } },
    },
  },
  { typeName: 'CreateTaskResult', value: { task } },
  { typeName: 'GetTaskResult', value: { ...task, status: 'completed' } },
  {
    typeName: 'TaskStatusNotification',
    value: { jsonrpc: '2.0', method: 'notifications/tasks/status', params: { ...task, ttl: null } },
  },
  {
    typeName: 'CreateMessageRequest',
    value: {
      jsonrpc: '2.0',
      id: 'srv-2',
      method: 'sampling/createMessage',
      params: {
        messages: [
          { role: 'user', content: [text] },
          {
            role: 'assistant',
            content: { type: 'tool_use', id: 'tu-1', name: 'get_weather', input: { city: 'Oslo' } },
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', toolUseId: 'tu-1', content: [text], structuredContent: { t: 3 } }],
          },
        ],
        maxTokens: 500,
        tools: [weatherTool],
        toolChoice: { mode: 'auto' },
      },
    },
  },
  {
    typeName: 'URLElicitationRequiredError',
    value: {
      jsonrpc: '2.0',
      id: 5,
      error: {
        code: -32042,
        message: 'Authorization required',
        data: { elicitations: [{ mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'x' }] },
      },
    },
  },
  {
    typeName: 'Implementation',
    value: {
      ...serverInfo,
      title: 'Example',
      description: 'An example',
      websiteUrl: 'https://example.com',
      icons: [{ src: 'data:image/png;base64,AAA=' }],
    },
  },
];
