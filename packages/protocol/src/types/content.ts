import type { Role } from './common.js';
import type { BaseMetadata, Icons } from './implementation.js';
import type { MetaObject } from './meta.js';

/**
 * Hints for the client about how to use or show an object (`Annotations`; named `Annotated` with inline fields in
 * 2024-11-05).
 *
 * - `audience`, `priority`: all revisions.
 * - `lastModified`: 2025-06-18+.
 */
export interface Annotations {
  /** Who the data is meant for. */
  audience?: Role[];
  /** 0 (least important) … 1 (effectively required). */
  priority?: number;
  /** 2025-06-18+: ISO 8601 timestamp of the last modification. */
  lastModified?: string;
}

/**
 * Text for or from a model (`TextContent`).
 *
 * @example
 * ```ts
 * const block: TextContent = { type: 'text', text: 'It is 21 °C in Paris.' };
 * ```
 */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  /** 2025-06-18+. */
  _meta?: MetaObject;
}

/** An image for or from a model (`ImageContent`); `data` is Base64. */
export interface ImageContent {
  type: 'image';
  /** Base64-encoded image bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** 2025-06-18+. */
  _meta?: MetaObject;
}

/** Audio for or from a model (`AudioContent`, 2025-03-26+); `data` is Base64. */
export interface AudioContent {
  type: 'audio';
  /** Base64-encoded audio bytes. */
  data: string;
  mimeType: string;
  annotations?: Annotations;
  /** 2025-06-18+. */
  _meta?: MetaObject;
}

/**
 * A link to a resource the server can read (`ResourceLink`, 2025-06-18+). Not guaranteed to appear in
 * `resources/list`.
 */
export interface ResourceLink extends Resource {
  type: 'resource_link';
}

/** A resource's contents embedded in a prompt or tool result (`EmbeddedResource`). */
export interface EmbeddedResource {
  type: 'resource';
  resource: TextResourceContents | BlobResourceContents;
  annotations?: Annotations;
  /** 2025-06-18+. */
  _meta?: MetaObject;
}

/**
 * A content block of a tool result or prompt message (`ContentBlock`).
 *
 * - 2024-11-05: text, image, resource.
 * - 2025-03-26: + audio.
 * - 2025-06-18+: + resource_link.
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** A model's request to call a tool, inside sampling (`ToolUseContent`, 2025-11-25+, SEP-1577). */
export interface ToolUseContent {
  type: 'tool_use';
  /** Unique id that the matching {@link ToolResultContent} refers to. */
  id: string;
  /** The tool's name. */
  name: string;
  /** Arguments that conform to the tool's input schema. */
  input: { [key: string]: unknown };
  /** Clients SHOULD preserve this when echoing tool uses in later sampling requests. */
  _meta?: MetaObject;
}

/** The result of a tool use, sent back to the model (`ToolResultContent`, 2025-11-25+, SEP-1577). */
export interface ToolResultContent {
  type: 'tool_result';
  /** The id of the {@link ToolUseContent} this answers. */
  toolUseId: string;
  /** Unstructured result, same format as `CallToolResult.content`. */
  content: ContentBlock[];
  /** Structured result: an object in 2025-11-25, any JSON value in 2026-07-28. */
  structuredContent?: unknown;
  /** Whether the tool use failed. */
  isError?: boolean;
  _meta?: MetaObject;
}

/**
 * A content block allowed in sampling messages (`SamplingMessageContentBlock`, 2025-11-25+): text, image, audio and,
 * with `sampling.tools`, tool use / tool result.
 */
export type SamplingMessageContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ToolUseContent
  | ToolResultContent;

/**
 * A resource the server can read (`Resource`).
 *
 * - `title`: 2025-06-18+. `icons`: 2025-11-25+. `_meta`: 2025-06-18+.
 *
 * @example
 * ```ts
 * const readme: Resource = { uri: 'file:///project/README.md', name: 'README.md', mimeType: 'text/markdown' };
 * ```
 */
export interface Resource extends BaseMetadata, Icons {
  uri: string;
  /** What the resource is; helps a model understand it. */
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  /** Raw size in bytes (before Base64), if known. */
  size?: number;
  _meta?: MetaObject;
}

/** Common fields of resource contents (`ResourceContents`). */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  /** 2025-06-18+. */
  _meta?: MetaObject;
}

/** Text contents of a resource (`TextResourceContents`). */
export interface TextResourceContents extends ResourceContents {
  text: string;
}

/** Binary contents of a resource, Base64-encoded (`BlobResourceContents`). */
export interface BlobResourceContents extends ResourceContents {
  blob: string;
}
