import { type CompleteResult, invalidParamsError } from '@mcpkit/protocol';
import type { Completer, ResourceTemplate } from '../resources/resource-template';
import type { Server } from '../server/server';
import type { ServerRequestContext } from '../session/context';

/** Where completers come from: the features that own prompts and resource templates. */
export interface CompletionSources {
  /** The argument completers of the enabled prompt `name`, or `undefined` when there is none. */
  promptCompleters(name: string): Readonly<Record<string, Completer>> | undefined;
  /** The enabled resource template with exactly this URI template, if any. */
  template(uriTemplate: string): ResourceTemplate | undefined;
}

interface CompleteParams {
  ref?: { type?: unknown; name?: unknown; uri?: unknown };
  argument?: { name?: unknown; value?: unknown };
  context?: { arguments?: Record<string, string> };
}

/** The most values one `completion/complete` result carries (the spec's limit); `total` still counts them all. */
const MAX_COMPLETION_VALUES = 100;

/**
 * Answers `completion/complete` for prompt arguments and resource template variables. The capability is declared by
 * the features that register completable things, not here.
 */
export function installCompletion(server: Server, sources: CompletionSources): void {
  server.setRequestHandler('completion/complete', (params, ctx) =>
    complete(sources, params as CompleteParams | undefined, ctx),
  );
}

async function complete(
  sources: CompletionSources,
  params: CompleteParams | undefined,
  ctx: ServerRequestContext,
): Promise<CompleteResult> {
  const ref = params?.ref;
  const argument = params?.argument;
  if (typeof argument?.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParamsError('completion/complete needs params.argument {name, value} (strings)');
  }
  let completer: Completer | undefined;
  if (ref?.type === 'ref/prompt') {
    const completers = typeof ref.name === 'string' ? sources.promptCompleters(ref.name) : undefined;
    if (completers === undefined) throw invalidParamsError(`Unknown prompt: ${String(ref.name)}`, { ref });
    completer = Object.hasOwn(completers, argument.name) ? completers[argument.name] : undefined;
  } else if (ref?.type === 'ref/resource') {
    const template = typeof ref.uri === 'string' ? sources.template(ref.uri) : undefined;
    if (template === undefined) throw invalidParamsError(`Unknown resource template: ${String(ref.uri)}`, { ref });
    completer = template.completer(argument.name);
  } else {
    throw invalidParamsError('completion/complete needs params.ref of type "ref/prompt" or "ref/resource"', { ref });
  }
  if (completer === undefined) return { completion: { values: [], hasMore: false } };
  const values = await completer(argument.value, { arguments: params?.context?.arguments ?? {} }, ctx);
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: values.length,
      hasMore: values.length > MAX_COMPLETION_VALUES,
    },
  };
}
