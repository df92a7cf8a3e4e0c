// Random disconnects for the HTTP sessions of the soak: a `fetch` that, for some SSE responses, lets the body through
// up to a random byte and then drops the connection (the request is aborted, so the socket really closes and the
// server sees the client go) while the client sees the body fail, as after a network cut. A POST stream is cut only
// after its first event, the priming event that carries an id: before it a client has nothing to resume from, which
// no server can fix. The client transport then resumes with GET + Last-Event-ID, and those GETs may be cut too.

/** What the soak counts about cuts. */
export interface CutStats {
  cuts: number;
}

const BLANK_LINE_END = 10; // '\n': an SSE event ends with "\n\n"

/** A fetch that cuts a fraction `rate` of SSE responses at a random byte within `maxBytes` (after the first event). */
export function cuttingFetch(rate: number, maxBytes: number, stats: CutStats): typeof fetch {
  return async (input, init) => {
    const abort = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, abort.signal]) : abort.signal;
    const response = await fetch(input, { ...init, signal });
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream') || response.body === null || Math.random() >= rate) return response;
    const afterFirstEvent = (init?.method ?? 'GET') === 'POST';
    const cutAt = Math.floor(Math.random() * maxBytes);
    const reader = response.body.getReader();
    let counted = 0;
    let counting = !afterFirstEvent;
    let previous = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        const { value, done } = await reader.read().catch((error: unknown) => {
          out.error(error);
          return { value: undefined, done: true as const };
        });
        if (done) {
          out.close();
          return;
        }
        for (let index = 0; index < value.length; index++) {
          const byte = value[index]!;
          if (!counting) {
            if (byte === BLANK_LINE_END && previous === BLANK_LINE_END) counting = true;
            previous = byte;
            continue;
          }
          if (counted++ === cutAt) {
            if (index > 0) out.enqueue(value.subarray(0, index));
            stats.cuts++;
            abort.abort(new Error('soak: connection cut'));
            out.error(new TypeError('soak: connection cut'));
            return;
          }
        }
        out.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
