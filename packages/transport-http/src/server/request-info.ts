import type { MessageInfo } from '@mcpkit/jsonrpc-core';

/**
 * `MessageInfo.request` for an HTTP request: the URL, and the headers as a lower-case record built only when a
 * handler reads them (most never do, and copying headers costs on every request).
 */
export function requestInfoOf(request: Request): NonNullable<MessageInfo['request']> {
  let headers: Record<string, string> | undefined;
  return {
    url: request.url,
    get headers(): Record<string, string> {
      if (headers === undefined) {
        headers = {};
        for (const [name, value] of request.headers) headers[name] = value;
      }
      return headers;
    },
  };
}
