import { LIST_METHOD, type ListKind, type ListPage } from './lists';
import type { CallOptions } from './options';
import type { RequestPipeline } from './requests';

/** One page of a list other than tools (whose page also drops invalid tools): cached per cursor in 2026-07-28. */
export function listPage<K extends Exclude<ListKind, 'tools'>>(
  requests: RequestPipeline,
  kind: K,
  params: { cursor?: string },
  options: CallOptions | undefined,
): Promise<ListPage[K]> {
  return requests.call(LIST_METHOD[kind], params, options, { cacheKey: params.cursor ?? '' });
}
