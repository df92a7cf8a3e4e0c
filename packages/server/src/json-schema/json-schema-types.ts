// The type-level reading of JSON Schemas lives in @mcpkit/protocol, so the client types `structuredContent` with it too.
export type { InferJsonSchema } from '@mcpkit/protocol';
