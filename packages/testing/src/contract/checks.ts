import type { JsonRpcMessage, JsonRpcRequest, Transport } from '@mcpkit/jsonrpc-core';
import {
  type EndRecord,
  expectSameJson,
  type Running,
  settle,
  TransportContractError,
  trySend,
  withPair,
} from './harness';
import type { ContractCase, MakeTransportPair, TransportContractOptions } from './types';

/** What a check needs to know to decide whether it applies. */
interface Check {
  name: string;
  /** Why it does not apply to the transport, or undefined when it does. */
  skip?: (options: TransportContractOptions) => string | undefined;
  run: (running: Running, options: TransportContractOptions) => Promise<void>;
}

const UNICODE_SAMPLES = [
  'héllo wörld',
  '日本語のテキスト',
  'emoji 😀👍🏽👩‍👩‍👧 and astral 𝄞',
  'combining e\u0301 and RTL עברית العربية',
  'line separators \u2028 \u2029, controls \t \n \r \u0001, quotes " \' \\',
  '{"looks":"like json"}\n{"on":"two lines"}',
];

/** The server end answers a request the way a peer would: the response tied to the request it answers. */
function answer(server: Transport, request: JsonRpcRequest, result: unknown) {
  return server.send({ jsonrpc: '2.0', id: request.id, result } as JsonRpcMessage, { relatedRequestId: request.id });
}

function noLateMessages(check: string, ...ends: EndRecord[]): void {
  for (const end of ends) {
    if (end.lateMessages > 0) {
      throw new TransportContractError(
        check,
        `the ${end.end} end delivered ${end.lateMessages} message(s) after onclose`,
      );
    }
  }
}

async function expectOneClose(check: string, end: EndRecord, timeoutMs: number): Promise<void> {
  await end.until(() => end.closes > 0, check, `the ${end.end} end's onclose`, timeoutMs);
  // A second call would come late, if at all: give it a moment to show.
  await settle(30);
  if (end.closes !== 1) {
    throw new TransportContractError(
      check,
      `the ${end.end} end's onclose ran ${end.closes} times (the contract: once)`,
    );
  }
}

/**
 * Sends messages from the server to the client: unsolicited when the transport can, otherwise as notifications tied
 * to a client request (then the response ends the stream).
 */
async function serverToClient(
  running: Running,
  options: TransportContractOptions,
  check: string,
  messages: (index: number) => JsonRpcMessage,
  count: number,
): Promise<JsonRpcMessage[]> {
  const { pair, client, server } = running;
  if (options.capabilities?.serverInitiated !== false) {
    const sends = [];
    for (let index = 0; index < count; index++) sends.push(pair.server.send(messages(index)));
    await Promise.all(sends);
    await client.until(
      () => client.messages.length >= count,
      check,
      `${count} messages at the client`,
      running.timeoutMs,
    );
    return client.messages.slice(0, count);
  }
  const opener = running.request('contract-stream', 'contract/stream') as JsonRpcRequest;
  const opened = pair.client.send(opener);
  await server.until(
    () => server.messages.some((message) => 'id' in message && message.id === opener.id),
    check,
    'the opening request at the server',
    running.timeoutMs,
  );
  const sends = [];
  for (let index = 0; index < count; index++) {
    sends.push(pair.server.send(messages(index), { relatedRequestId: opener.id }));
  }
  sends.push(answer(pair.server, opener, {}));
  await Promise.all([...sends, opened]);
  await client.until(
    () => client.messages.length >= count + 1,
    check,
    `${count} messages and a response at the client`,
    running.timeoutMs,
  );
  return client.messages.slice(0, count);
}

const notifyAt = (running: Running) => (index: number) => running.notification('contract/sequence', { index });

const CHECKS: Check[] = [
  {
    name: 'delivers messages in the order they were sent, both ways',
    async run(running, options) {
      const check = this.name;
      const { pair, server } = running;
      const count = 100;
      const sent = Array.from({ length: count }, (_, index) => notifyAt(running)(index));
      await Promise.all(sent.map((message) => pair.client.send(message)));
      await server.until(
        () => server.messages.length >= count,
        check,
        `${count} messages at the server`,
        running.timeoutMs,
      );
      expectSameJson(check, 'the order of client→server messages', server.messages.slice(0, count), sent);
      const received = await serverToClient(running, options, check, notifyAt(running), count);
      expectSameJson(
        check,
        'the order of server→client messages',
        received,
        Array.from({ length: count }, (_, index) => notifyAt(running)(index)),
      );
    },
  },
  {
    name: 'carries a large message intact, both ways',
    async run(running, options) {
      const check = this.name;
      const { pair, client, server } = running;
      const bytes = options.largeMessageBytes ?? 1024 * 1024;
      const unit = 'abcdefghijklmnopqrstuvwxyz0123456789 ✓ ';
      const text = unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
      const request = running.request(1, 'contract/large', { text });
      // Not awaited before the answer: a transport may settle a request's send only once its response starts (HTTP
      // holds the response headers until then).
      const sent = pair.client.send(request);
      await server.until(() => server.messages.length > 0, check, 'the large request at the server', running.timeoutMs);
      expectSameJson(check, 'the large request', server.messages[0], request);
      await answer(pair.server, server.messages[0] as JsonRpcRequest, { text });
      await sent;
      await client.until(
        () => client.messages.length > 0,
        check,
        'the large response at the client',
        running.timeoutMs,
      );
      expectSameJson(check, 'the large response', client.messages[0], { jsonrpc: '2.0', id: 1, result: { text } });
    },
  },
  {
    name: 'carries unicode text intact, both ways',
    async run(running) {
      const check = this.name;
      const { pair, client, server } = running;
      const request = running.request('ünïcödé-id-😀', 'contract/unicode', { samples: UNICODE_SAMPLES });
      const sent = pair.client.send(request);
      await server.until(() => server.messages.length > 0, check, 'the request at the server', running.timeoutMs);
      expectSameJson(check, 'the unicode request', server.messages[0], request);
      await answer(pair.server, server.messages[0] as JsonRpcRequest, { samples: UNICODE_SAMPLES });
      await sent;
      await client.until(() => client.messages.length > 0, check, 'the response at the client', running.timeoutMs);
      expectSameJson(check, 'the unicode response', client.messages[0], {
        jsonrpc: '2.0',
        id: 'ünïcödé-id-😀',
        result: { samples: UNICODE_SAMPLES },
      });
    },
  },
  {
    name: 'keeps many requests in flight and delivers every response, answered out of order',
    async run(running, options) {
      const check = this.name;
      const { pair, client, server } = running;
      const count = options.inFlight ?? 200;
      const sends = [];
      for (let id = 1; id <= count; id++) sends.push(pair.client.send(running.request(id, 'contract/echo', { id })));
      await server.until(
        () => server.messages.length >= count,
        check,
        `${count} requests at the server`,
        running.timeoutMs,
      );
      const requests = server.messages.slice(0, count) as JsonRpcRequest[];
      // Answer newest first, so the transport cannot rely on responses coming in request order.
      await Promise.all(requests.toReversed().map((request) => answer(pair.server, request, { echo: request.params })));
      await Promise.all(sends);
      await client.until(
        () => client.messages.length >= count,
        check,
        `${count} responses at the client`,
        running.timeoutMs,
      );
      const byId = new Map(client.messages.map((message) => [(message as { id: unknown }).id, message]));
      for (let id = 1; id <= count; id++) {
        const response = byId.get(id);
        if (response === undefined) throw new TransportContractError(check, `the response to request ${id} never came`);
        expectSameJson(check, `the response to request ${id}`, (response as { result: unknown }).result, {
          echo: requests.find((request) => request.id === id)!.params,
        });
      }
    },
  },
  {
    name: 'close() on the client end runs each end’s onclose once',
    async run(running, options) {
      const check = this.name;
      const { pair, client, server } = running;
      await pair.client.close();
      await pair.client.close();
      await expectOneClose(check, client, running.timeoutMs);
      if (options.capabilities?.closeReachesServer !== false) await expectOneClose(check, server, running.timeoutMs);
      noLateMessages(check, client, server);
    },
  },
  {
    name: 'close() on the server end runs each end’s onclose once',
    skip: (options) =>
      options.capabilities?.serverCloses === false ? 'the server end cannot close the channel' : undefined,
    async run(running) {
      const check = this.name;
      const { pair, client, server } = running;
      await pair.server.close();
      await pair.server.close();
      await expectOneClose(check, server, running.timeoutMs);
      await expectOneClose(check, client, running.timeoutMs);
      noLateMessages(check, client, server);
    },
  },
  {
    name: 'send() after close rejects or throws, on both ends',
    async run(running, options) {
      const check = this.name;
      const { pair, client, server } = running;
      await pair.client.close();
      await client.until(() => client.closes > 0, check, "the client end's onclose", running.timeoutMs);
      const clientError = await trySend(pair.client, running.notification('contract/late'));
      if (clientError === undefined) {
        throw new TransportContractError(check, 'the client end accepted a message after it closed (it must reject)');
      }
      if (options.capabilities?.closeReachesServer === false) return;
      await server.until(() => server.closes > 0, check, "the server end's onclose", running.timeoutMs);
      const serverError = await trySend(pair.server, running.notification('contract/late'));
      if (serverError === undefined) {
        throw new TransportContractError(check, 'the server end accepted a message after it closed (it must reject)');
      }
    },
  },
  {
    name: 'a send pending when the channel closes settles (never hangs)',
    async run(running, options) {
      const check = this.name;
      const { pair } = running;
      const text = 'x'.repeat(options.largeMessageBytes ?? 1024 * 1024);
      const pending = trySend(pair.client, running.notification('contract/pending', { text }));
      const closed = pair.client.close();
      const outcome = await Promise.race([
        pending.then(() => 'settled' as const),
        settle(running.timeoutMs).then(() => 'hung' as const),
      ]);
      await closed;
      if (outcome === 'hung') {
        throw new TransportContractError(
          check,
          `a send pending at close() had not settled after ${running.timeoutMs} ms`,
        );
      }
      const late = await trySend(pair.client, running.notification('contract/late'));
      if (late === undefined) throw new TransportContractError(check, 'send() after close() resolved');
    },
  },
  {
    name: 'loses no message when the server closes right after sending',
    skip: (options) =>
      options.capabilities?.serverCloses === false
        ? 'the server end cannot close the channel'
        : options.capabilities?.serverInitiated === false
          ? 'the server end cannot send unsolicited messages'
          : undefined,
    async run(running) {
      const check = this.name;
      const { pair, client } = running;
      const count = 20;
      const sent = Array.from({ length: count }, (_, index) => notifyAt(running)(index));
      const sends = sent.map((message) => trySend(pair.server, message));
      const closed = pair.server.close();
      const outcomes = await Promise.all(sends);
      await closed;
      await client.until(() => client.closes > 0, check, "the client end's onclose", running.timeoutMs);
      const accepted = sent.filter((_, index) => outcomes[index] === undefined);
      expectSameJson(check, 'what reached the client before its onclose', client.messages, accepted);
      noLateMessages(check, client);
    },
  },
  {
    name: 'loses no message when the client closes right after sending',
    skip: (options) =>
      options.capabilities?.closeReachesServer === false ? 'the server end does not see the client close' : undefined,
    async run(running) {
      const check = this.name;
      const { pair, server } = running;
      const count = 20;
      const sent = Array.from({ length: count }, (_, index) => notifyAt(running)(index));
      const sends = sent.map((message) => trySend(pair.client, message));
      const closed = pair.client.close();
      const outcomes = await Promise.all(sends);
      await closed;
      await server.until(() => server.closes > 0, check, "the server end's onclose", running.timeoutMs);
      const accepted = sent.filter((_, index) => outcomes[index] === undefined);
      expectSameJson(check, 'what reached the server before its onclose', server.messages, accepted);
      noLateMessages(check, server);
    },
  },
  {
    name: 'passes the MessageInfo of each message to onmessage',
    async run(running, options) {
      const check = this.name;
      const { pair, server } = running;
      const sent = pair.client.send(running.request(7, 'contract/info'));
      await pair.client.send(running.notification('contract/info'));
      await server.until(() => server.messages.length >= 2, check, 'two messages at the server', running.timeoutMs);
      const request = server.messages.find((message) => 'id' in message) as JsonRpcRequest;
      await answer(pair.server, request, {});
      await sent;
      for (const info of server.infos) {
        if (info !== undefined && (typeof info !== 'object' || info === null)) {
          throw new TransportContractError(check, `onmessage got a MessageInfo that is not an object: ${String(info)}`);
        }
        try {
          options.capabilities?.messageInfo?.(info);
        } catch (error) {
          throw new TransportContractError(check, `the MessageInfo is not what the transport promises: ${error}`, info);
        }
      }
    },
  },
  {
    name: 'cancels a request when the signal of its send options aborts',
    skip: (options) =>
      options.capabilities?.cancelsBySignal === true ? undefined : 'the transport does not declare cancelsBySignal',
    async run(running) {
      const check = this.name;
      const { pair, server } = running;
      const request = running.request(9, 'contract/slow') as JsonRpcRequest;
      if (pair.client.cancelsBySignal?.(request) !== true) {
        throw new TransportContractError(check, 'cancelsBySignal(request) did not return true for the suite’s request');
      }
      const controller = new AbortController();
      const sent = trySend(pair.client, request, { signal: controller.signal });
      await server.until(() => server.messages.length > 0, check, 'the request at the server', running.timeoutMs);
      const signal = server.infos[0]?.signal;
      if (signal === undefined) {
        throw new TransportContractError(check, 'the server end delivered the request without a MessageInfo signal');
      }
      controller.abort(new Error('the caller stopped waiting'));
      await server.until(
        () => signal.aborted,
        check,
        "the abort of the request's signal at the server",
        running.timeoutMs,
      );
      await sent;
    },
  },
  {
    name: 'reports a bad frame through onerror and keeps the channel open',
    skip: (options) =>
      options.capabilities?.invalidFrames === true ? undefined : 'the transport does not declare invalidFrames',
    async run(running) {
      const check = this.name;
      const { pair, server } = running;
      if (pair.injectInvalidFrame === undefined) {
        throw new TransportContractError(
          check,
          'capabilities.invalidFrames is set but the pair has no injectInvalidFrame',
        );
      }
      await pair.injectInvalidFrame();
      await server.until(() => server.errors.length > 0, check, "the server end's onerror", running.timeoutMs);
      if (server.closes > 0) throw new TransportContractError(check, 'a bad frame closed the channel');
      const after = running.notification('contract/after-bad-frame');
      await pair.client.send(after);
      await server.until(
        () => server.messages.some((message) => 'method' in message && message.method === 'contract/after-bad-frame'),
        check,
        'the message sent after the bad frame',
        running.timeoutMs,
      );
    },
  },
];

/**
 * The transport contract as plain cases, for any test runner: each `run()` makes a fresh pair, starts it, checks one
 * rule of the `Transport` contract that `JsonRpcPeer` relies on, and cleans up. A case that does not apply to the
 * transport (see `TransportCapabilities`) carries a `skip` reason and resolves at once.
 *
 * @example
 * // node:test, without describeTransport
 * import { test } from 'node:test';
 * import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
 * import { transportContractCases } from '@mcpkit/testing';
 *
 * for (const contractCase of transportContractCases(() => {
 *   const [client, server] = createLinkedTransports();
 *   return { client, server };
 * })) {
 *   test(contractCase.name, { skip: contractCase.skip }, () => contractCase.run());
 * }
 */
export function transportContractCases(
  makePair: MakeTransportPair,
  options: TransportContractOptions = {},
): ContractCase[] {
  return CHECKS.map((check) => {
    const reason = check.skip?.(options);
    const contractCase: ContractCase = {
      name: check.name,
      run: () =>
        reason === undefined
          ? withPair(makePair, options, (running) => check.run(running, options))
          : Promise.resolve(),
    };
    if (reason !== undefined) contractCase.skip = reason;
    return contractCase;
  });
}
