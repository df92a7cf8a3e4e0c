// The floor's JSON-RPC answers, shared by the stdio and HTTP floors: `initialize`, `tools/list`, and `tools/call` of
// `echo` and `big`, with no validation beyond "is it one of these". It tells how close an SDK gets to what Node itself
// does here.
import { bigText } from './big-text';

export interface RawMessage {
  id?: number | string;
  method?: string;
  params?: { name?: string; arguments?: { text?: unknown; bytes?: unknown } };
}

const ECHO_TOOL = {
  name: 'echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** The result for `message`, or `undefined` for a method the floor does not know. */
export function rawAnswer(message: RawMessage): unknown {
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
      const args = message.params?.arguments;
      if (message.params?.name === 'big')
        return { content: [{ type: 'text', text: bigText(typeof args?.bytes === 'number' ? args.bytes : 0) }] };
      return { content: [{ type: 'text', text: typeof args?.text === 'string' ? args.text : '' }] };
    }
    default:
      return undefined;
  }
}

/** The serialized JSON-RPC reply to a request (a result, or -32601). */
export function rawReply(message: RawMessage): string {
  const result = rawAnswer(message);
  return JSON.stringify(
    result === undefined
      ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
      : { jsonrpc: '2.0', id: message.id, result },
  );
}
