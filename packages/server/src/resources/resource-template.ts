import type { Resource } from '@mcpkit/protocol';
import type { ServerRequestContext } from '../session/context';
import { UriTemplate } from '../uri-template/uri-template';
import type { TemplateVariableName } from '../uri-template/uri-template-types';

/** Suggests values for one argument or template variable (`completion/complete`). */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
  ctx: ServerRequestContext,
) => readonly string[] | Promise<readonly string[]>;

/** Callbacks of a `ResourceTemplate` (`T`: its URI template string, which names the variables `complete` takes). */
export interface ResourceTemplateCallbacks<T extends string = string> {
  /** Lists concrete resources of this template for `resources/list` (after the static ones). */
  list?: (ctx: ServerRequestContext) => readonly Resource[] | Promise<readonly Resource[]>;
  /** Completers for template variables, by variable name. */
  complete?: Partial<Record<TemplateVariableName<T>, Completer>>;
}

/**
 * A family of resources named by an RFC 6570 URI template. `resources/read` of a URI that matches it reaches the
 * handler with the variables extracted; `list` contributes concrete resources to `resources/list`; `complete`
 * answers `completion/complete` for its variables.
 *
 * @example
 * const users = new ResourceTemplate('users://{id}/profile', {
 *   list: async () => (await db.users()).map((u) => ({ uri: `users://${u.id}/profile`, name: u.name })),
 *   complete: { id: (value) => ids.filter((id) => id.startsWith(value)) },
 * });
 * // `id` is typed from the template string: `{ id: string }`.
 * server.registerResource('user-profile', users, { mimeType: 'application/json' }, async (uri, { id }) => ({
 *   contents: [{ uri, text: JSON.stringify(await db.user(id)) }],
 * }));
 */
export class ResourceTemplate<T extends string = string> {
  readonly uriTemplate: UriTemplate;
  readonly callbacks: ResourceTemplateCallbacks<T>;

  constructor(uriTemplate: T | UriTemplate, callbacks: ResourceTemplateCallbacks<T> = {}) {
    this.uriTemplate = typeof uriTemplate === 'string' ? new UriTemplate(uriTemplate) : uriTemplate;
    this.callbacks = callbacks;
  }

  /** The completer of one variable, if any. */
  completer(variable: string): Completer | undefined {
    const complete = this.callbacks.complete;
    return complete !== undefined && Object.hasOwn(complete, variable)
      ? (complete as Record<string, Completer>)[variable]
      : undefined;
  }
}
