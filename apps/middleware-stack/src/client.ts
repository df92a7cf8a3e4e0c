// The sample client: tool-call approval (a person says yes or no), retries of idempotent requests, tracing, logging.
import { Client } from '@mcpkit/client';
import { approval, retries, type ToolCallApprovalRequest } from '@mcpkit/middleware/client';
import { consoleJsonLogger, logging } from '@mcpkit/middleware/logging';
import { type TracingOptions, tracing } from '@mcpkit/middleware/tracing';

export interface StackClientOptions {
  /** Says yes or no to a tool call; the default approves read-only tools and refuses the rest. */
  approve?: (request: ToolCallApprovalRequest) => boolean | Promise<boolean>;
  /** Told before each retry. */
  onRetry?: (info: { method: string; attempt: number; delayMs: number; error: unknown }) => void;
  /** Tracing options (tests pass their own tracer provider). */
  tracing?: TracingOptions;
  /** Where the client's log lines go. Default: stderr. */
  log?: (line: string) => void;
}

export function createStackClient(options: StackClientOptions = {}): Client {
  const client = new Client({ name: 'middleware-stack-client', version: '1.0.0' }, { requestTimeoutMs: 10_000 });
  // Outermost first: each retry is its own traced, logged request; approval runs once, before anything is sent.
  client.use(approval({ approve: options.approve ?? (({ annotations }) => annotations?.readOnlyHint === true) }));
  client.use(retries({ maxAttempts: 3, baseDelayMs: 100, onRetry: options.onRetry }));
  client.use(logging({ logger: consoleJsonLogger({ write: options.log }) }));
  client.use(tracing(options.tracing));
  return client;
}
