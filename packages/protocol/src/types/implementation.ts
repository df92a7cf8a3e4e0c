// Who a side is: `Implementation` (name, version, title, icons) and the metadata it shares with tools, prompts and
// resources. A leaf of the type modules.

/**
 * A name for programs and a title for people (`BaseMetadata`). `title` exists from 2025-06-18; before it, `name`
 * doubled as the display name.
 */
export interface BaseMetadata {
  /** For programmatic use; also the display fallback when `title` is absent. */
  name: string;
  /** 2025-06-18+: a human-readable display name. */
  title?: string;
}

/**
 * An icon a client may show (`Icon`, 2025-11-25+, SEP-973).
 *
 * @example
 * ```ts
 * const icon: Icon = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' };
 * ```
 */
export interface Icon {
  /** An http(s) URL or a `data:` URI. Consumers SHOULD check the origin before fetching. */
  src: string;
  /** Overrides a missing or generic source MIME type. */
  mimeType?: string;
  /** `WxH` strings such as `"48x48"`, or `"any"` for scalable formats. */
  sizes?: string[];
  /** The background the icon is designed for. */
  theme?: 'light' | 'dark';
}

/** Mixin for objects that carry icons (`Icons`, 2025-11-25+). */
export interface Icons {
  /** 2025-11-25+: icons a client may display. */
  icons?: Icon[];
}

/**
 * Describes an MCP implementation: `clientInfo` / `serverInfo` (`Implementation`).
 *
 * - 2024-11-05 / 2025-03-26: `name` and `version` only.
 * - 2025-06-18: + `title`.
 * - 2025-11-25+: + `description`, `websiteUrl`, `icons`.
 *
 * @example
 * ```ts
 * const serverInfo: Implementation = { name: 'weather', version: '1.2.0', title: 'Weather' };
 * ```
 */
export interface Implementation extends BaseMetadata, Icons {
  version: string;
  /** 2025-11-25+: what this implementation does. */
  description?: string;
  /** 2025-11-25+: the implementation's website. */
  websiteUrl?: string;
}
