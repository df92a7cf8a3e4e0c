// A tool handler's result is checked before it goes out (one pass over `content`, no schema): a malformed result would
// otherwise surface on the client as its own error, far from the tool that made it. The rules are the CallToolResult
// of each revision: which content types exist in it, and the fields each type requires.
import { defineCodedError, isJsonObject } from '@mcpkit/jsonrpc-core';

/** Reported (to `onError`, else `console.error`) when a tool handler returns a result the protocol does not allow. */
export class ToolResultError extends defineCodedError<'ERR_INVALID_TOOL_RESULT'>(
  'ToolResultError',
  '@mcpkit/server/ToolResultError',
) {}

/** Content types: the first revision that has each, and its required string fields. */
const CONTENT: Record<string, { since: string; fields: readonly string[] }> = {
  text: { since: '2024-11-05', fields: ['text'] },
  image: { since: '2024-11-05', fields: ['data', 'mimeType'] },
  audio: { since: '2025-03-26', fields: ['data', 'mimeType'] },
  resource_link: { since: '2025-06-18', fields: ['uri', 'name'] },
  resource: { since: '2024-11-05', fields: [] },
};

/**
 * What is wrong with a tool result in protocol `version` (`field`: where, `message`: what), or `undefined`.
 *
 * @example
 * findToolResultProblem({ content: [{ type: 'txt', text: 'hi' }] }, '2025-11-25');
 * // { field: 'content[0].type', message: '"txt" is not a content type (text, image, audio, resource_link, resource)' }
 */
export function findToolResultProblem(
  result: unknown,
  version: string,
): { field: string; message: string } | undefined {
  if (!isJsonObject(result))
    return { field: '(result)', message: `must be an object with "content"; got ${typeof result}` };
  const content = result.content;
  if (!Array.isArray(content)) {
    return { field: 'content', message: 'is required: an array of content blocks (it may be empty)' };
  }
  for (let index = 0; index < content.length; index++) {
    const block: unknown = content[index];
    const at = `content[${index}]`;
    if (!isJsonObject(block)) return { field: at, message: 'must be an object with a "type"' };
    const type = block.type;
    const rule = typeof type === 'string' && Object.hasOwn(CONTENT, type) ? CONTENT[type] : undefined;
    if (rule === undefined) {
      return {
        field: `${at}.type`,
        message: `${JSON.stringify(type)} is not a content type (${Object.keys(CONTENT).join(', ')})`,
      };
    }
    if (version < rule.since) {
      return { field: `${at}.type`, message: `"${type}" content does not exist in ${version} (from ${rule.since} on)` };
    }
    for (const field of rule.fields) {
      if (typeof block[field] !== 'string') return { field: `${at}.${field}`, message: `is required (a string)` };
    }
    if (type === 'resource' && !(isJsonObject(block.resource) && typeof block.resource.uri === 'string')) {
      return { field: `${at}.resource`, message: 'is required: an object with a "uri"' };
    }
  }
  if (result.structuredContent !== undefined && !isJsonObject(result.structuredContent)) {
    return { field: 'structuredContent', message: 'must be an object' };
  }
  return undefined;
}
