import type {
  BaseMetadata,
  CacheableResult,
  Icons,
  PaginatedRequestParams,
  PaginatedResult,
  Result,
  Role,
} from './common.js';
import type { ContentBlock } from './content.js';
import type { InputResponseRequestParams } from './input-requests.js';
import type { MetaObject } from './meta.js';

/** An argument a prompt accepts (`PromptArgument`). `title`: 2025-06-18+. */
export interface PromptArgument extends BaseMetadata {
  description?: string;
  required?: boolean;
}

/**
 * A prompt or prompt template (`Prompt`). `title`, `_meta`: 2025-06-18+. `icons`: 2025-11-25+.
 *
 * @example
 * ```ts
 * const prompt: Prompt = { name: 'code_review', arguments: [{ name: 'code', required: true }] };
 * ```
 */
export interface Prompt extends BaseMetadata, Icons {
  description?: string;
  arguments?: PromptArgument[];
  _meta?: MetaObject;
}

/**
 * One message of a prompt (`PromptMessage`). Content: text/image/resource in 2024-11-05, + audio in 2025-03-26,
 * any `ContentBlock` (+ resource_link) from 2025-06-18.
 */
export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

/** Params of `prompts/list`. */
export type ListPromptsRequestParams = PaginatedRequestParams;

/** Result of `prompts/list` (`ListPromptsResult`); cacheable in 2026-07-28. */
export interface ListPromptsResult extends PaginatedResult, CacheableResult {
  prompts: Prompt[];
}

/**
 * Params of `prompts/get` (`GetPromptRequestParams`). 2026-07-28: envelope required; retries carry
 * `inputResponses` / `requestState`.
 */
export interface GetPromptRequestParams extends InputResponseRequestParams {
  name: string;
  /** Template arguments (string values only). */
  arguments?: { [name: string]: string };
}

/**
 * Result of `prompts/get` (`GetPromptResult`). In 2026-07-28 the server may instead answer `InputRequiredResult`.
 */
export interface GetPromptResult extends Result {
  resultType?: 'complete';
  description?: string;
  messages: PromptMessage[];
}

/** Identifies a prompt for completion (`PromptReference`). `title`: 2025-06-18+. */
export interface PromptReference extends BaseMetadata {
  type: 'ref/prompt';
}
