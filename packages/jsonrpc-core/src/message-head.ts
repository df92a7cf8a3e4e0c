import type { RequestId } from './messages';

// What can be told about a JSON-RPC message from the start of its text alone: a line too long to keep is dropped as it
// arrives, but its first bytes usually carry the `id` (serialisers write `jsonrpc`, `id`, `method` before `params`),
// and with it the peer's request can be answered, or our own request failed, at once instead of at its timeout.

/** What the start of a JSON-RPC message's text says about it. */
export interface MessageHead {
  /** The message's `id`, when it arrived complete (a string or a number; `null` and anything else are not kept). */
  readonly id: RequestId | undefined;
  /**
   * `'request'` when a `method` or `params` member came first, `'response'` when a `result` or `error` did, `undefined`
   * when neither did (or the text is no JSON object: a batch, garbage).
   */
  readonly kind: 'request' | 'response' | undefined;
}

const NONE: MessageHead = Object.freeze({ id: undefined, kind: undefined });

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** JSON whitespace: space, tab, line feed, carriage return. */
export function isSpace(code: number): boolean {
  return code === SPACE || code === TAB || code === LF || code === CR;
}

/** Index just past the string starting at `start` (a quote), or -1 when the text ends inside it. */
function endOfString(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === BACKSLASH) index++;
    else if (code === QUOTE) return index + 1;
  }
  return -1;
}

/** Index just past the value starting at `start`, or -1 when the text ends inside it. */
function endOfValue(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return endOfString(text, start);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code === QUOTE) {
        index = endOfString(text, index) - 1;
        if (index < 0) return -1;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        depth++;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (--depth === 0) return index + 1;
      }
    }
    return -1;
  }
  // A number or a literal: it ends at a delimiter, which must be in the text (else it may go on).
  for (let index = start; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) return index;
  }
  return -1;
}

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Reads the top-level members of a JSON-RPC message from the start of its text, as far as the text goes, and keeps the
 * `id` and what kind of message it is. Never throws; anything that is not the start of a JSON object gives nothing.
 *
 * @example
 * readMessageHead('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"text":"aaaa');
 * // { id: 7, kind: 'request' }
 */
export function readMessageHead(text: string): MessageHead {
  let index = skipSpace(text, 0);
  if (text.charCodeAt(index) !== OPEN_BRACE) return NONE;
  let id: RequestId | undefined;
  let kind: MessageHead['kind'];
  index++;
  for (;;) {
    index = skipSpace(text, index);
    if (text.charCodeAt(index) !== QUOTE) break;
    const keyEnd = endOfString(text, index);
    if (keyEnd === -1) break;
    const key = parseJson(text.slice(index, keyEnd));
    index = skipSpace(text, keyEnd);
    if (text.charCodeAt(index) !== COLON) break;
    index = skipSpace(text, index + 1);
    if (index >= text.length) break;
    const valueEnd = endOfValue(text, index);
    if (key === 'method' || key === 'params') kind ??= 'request';
    else if (key === 'result' || key === 'error') kind ??= 'response';
    if (valueEnd === -1) break;
    if (key === 'id') {
      const value = parseJson(text.slice(index, valueEnd));
      if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) id = value;
    }
    index = skipSpace(text, valueEnd);
    if (text.charCodeAt(index) !== COMMA) break;
    index++;
  }
  return id === undefined && kind === undefined ? NONE : { id, kind };
}
