import type { RequestParams, Result } from './common.js';
import type { PromptReference } from './prompts.js';

/**
 * Identifies a resource or resource template for completion (`ResourceTemplateReference`; named
 * `ResourceReference` in 2024-11-05 and 2025-03-26, same shape).
 */
export interface ResourceTemplateReference {
  type: 'ref/resource';
  /** A URI or URI template. */
  uri: string;
}

/** The 2024-11-05 / 2025-03-26 name of {@link ResourceTemplateReference}. */
export type ResourceReference = ResourceTemplateReference;

/**
 * Params of `completion/complete` (`CompleteRequestParams`). `context.arguments`: 2025-06-18+.
 *
 * @example
 * ```ts
 * const params: CompleteRequestParams = {
 *   ref: { type: 'ref/prompt', name: 'code_review' },
 *   argument: { name: 'language', value: 'py' },
 * };
 * ```
 */
export interface CompleteRequestParams extends RequestParams {
  ref: PromptReference | ResourceTemplateReference;
  argument: {
    name: string;
    /** The partial value to complete. */
    value: string;
  };
  /** 2025-06-18+. */
  context?: {
    /** Already-resolved variables of the template or prompt. */
    arguments?: { [name: string]: string };
  };
}

/** Result of `completion/complete` (`CompleteResult`). */
export interface CompleteResult extends Result {
  completion: {
    /** At most 100 values. */
    values: string[];
    /** Total number of options, possibly more than sent. */
    total?: number;
    /** Whether more options exist beyond those sent. */
    hasMore?: boolean;
  };
}
