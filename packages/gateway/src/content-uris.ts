// The URIs inside what an upstream returns (resource links and embedded resources in content blocks, the contents of a
// read), mapped to the mount's downstream URIs so a caller can read them back through the gateway.
import type { ReadResourceResult } from '@mcpkit/protocol';
import type { MountNames } from './names';

/**
 * Content blocks with the URIs of this mount's resources mapped (a `resource_link`, an embedded `resource`), so a
 * caller can read what a tool or prompt points at through the gateway. Other blocks are kept as they are.
 */
export function downstreamBlocks<B>(names: MountNames, blocks: B[]): B[] {
  if (!Array.isArray(blocks)) return blocks;
  // Called on every forwarded result: a plain loop, and a copy only when a block holds a URI to map.
  let mapped: B[] | undefined;
  for (let index = 0; index < blocks.length; index++) {
    const item = blocks[index] as { type?: unknown; uri?: unknown; resource?: { uri?: unknown } } | null;
    let replaced: unknown;
    if (item?.type === 'resource_link' && typeof item.uri === 'string') {
      replaced = { ...item, uri: names.uri(item.uri) };
    } else if (item?.type === 'resource' && typeof item.resource?.uri === 'string') {
      replaced = { ...item, resource: { ...item.resource, uri: names.uri(item.resource.uri) } };
    }
    if (replaced === undefined) continue;
    mapped ??= [...blocks];
    mapped[index] = replaced as B;
  }
  return mapped ?? blocks;
}

/** A read's contents with their URIs mapped to the mount's downstream URIs (as they are when the mount has no prefix). */
export function downstreamContents(names: MountNames, result: ReadResourceResult): ReadResourceResult {
  if (names.uriPrefix === '' || !Array.isArray(result?.contents)) return result;
  return {
    ...result,
    contents: result.contents.map((content) =>
      typeof content?.uri === 'string' ? { ...content, uri: names.uri(content.uri) } : content,
    ),
  };
}
