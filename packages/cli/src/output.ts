import type { CallToolResult, ContentBlock } from '@mcpkit/protocol';
import type { CliIo } from './io';

/** Prints the command's one JSON document on stdout (`--json`). */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Prints lines on stdout. */
export function printLines(io: CliIo, lines: readonly string[]): void {
  if (lines.length) io.stdout.write(`${lines.join('\n')}\n`);
}

/** Rows of `name  description`, the names padded to one column. */
export function table(rows: ReadonlyArray<readonly [string, string | undefined]>): string[] {
  const width = Math.min(40, Math.max(0, ...rows.map(([name]) => name.length)));
  return rows.map(([name, text]) => (text ? `${name.padEnd(width)}  ${firstLine(text)}` : name));
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!;
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

/** A tool result as a person reads it: text as it is, other content named, structured content as JSON. */
export function describeToolResult(result: CallToolResult): string[] {
  const lines = result.content.map(describeContent);
  const hasText = result.content.some((block) => block.type === 'text');
  if (result.structuredContent !== undefined && !hasText) lines.push(JSON.stringify(result.structuredContent, null, 2));
  return lines;
}

/** One content block as text. */
export function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = block.resource as { uri: string; text?: string };
      return resource.text !== undefined
        ? `[resource ${resource.uri}]\n${resource.text}`
        : `[resource ${resource.uri}]`;
    }
    default:
      return JSON.stringify(block);
  }
}
