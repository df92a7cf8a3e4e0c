import { transportContractCases } from './checks';
import type { MakeTransportPair, TransportContractOptions } from './types';

/** The `describe` of a test runner: vitest, jest and `node:test` all have this shape. */
export type DescribeFunction = (name: string, body: () => void) => unknown;

/**
 * The `it` (or `test`) of a test runner. vitest and jest take `it.skip`; `node:test`'s `it` takes `{ skip }` options
 * instead, which `describeTransport` passes when there is no `it.skip`.
 */
export type ItFunction = ((name: string, body: () => Promise<void>) => unknown) & {
  skip?: (name: string, body: () => Promise<void>) => unknown;
};

/** Options for `describeTransport`: the runner's functions and the contract options. */
export interface DescribeTransportOptions extends TransportContractOptions {
  /** The runner's `describe`. */
  describe: DescribeFunction;
  /** The runner's `it` or `test`. */
  it: ItFunction;
}

/**
 * Registers the transport contract as one `describe` block of tests, one test per check, in vitest, jest or
 * `node:test`: pass that runner's `describe` and `it`. Checks that do not apply (see `TransportCapabilities`) are
 * registered as skipped, with the reason in their name.
 *
 * @example
 * import { describe, it } from 'vitest'; // or from 'node:test', or jest's globals
 * import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
 * import { describeTransport } from '@mcpkit/testing';
 *
 * describeTransport('in-memory', () => {
 *   const [client, server] = createLinkedTransports();
 *   return { client, server };
 * }, { describe, it });
 */
export function describeTransport(name: string, makePair: MakeTransportPair, options: DescribeTransportOptions): void {
  const { describe, it, ...contract } = options;
  describe(`transport contract: ${name}`, () => {
    for (const contractCase of transportContractCases(makePair, contract)) {
      if (contractCase.skip === undefined) {
        it(contractCase.name, () => contractCase.run());
      } else if (typeof it.skip === 'function') {
        it.skip(`${contractCase.name} (${contractCase.skip})`, () => contractCase.run());
      } else {
        // node:test: `it(name, { skip }, fn)`.
        (it as unknown as (name: string, options: { skip: string }, body: () => Promise<void>) => unknown)(
          contractCase.name,
          { skip: contractCase.skip },
          () => contractCase.run(),
        );
      }
    }
  });
}
