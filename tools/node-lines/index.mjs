// The Node.js lines mcpkit supports besides the machine's own, as binaries from npm's `node` package (installed under
// aliases, so no `node` executable lands on any workspace package's PATH: a sample app always runs on the Node its
// user started it with). The test matrix (scripts/test-matrix.mjs) and the conformance CLI (which needs Node >= 22)
// run these.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The lines tested besides the system Node, oldest first. */
export const NODE_LINES = Object.freeze([22, 24]);

/** The major version of the Node running this code. */
export const CURRENT_LINE = Number(process.versions.node.split('.')[0]);

/**
 * The absolute path of the `node` binary of one supported line. When this process already runs that line, its own
 * binary. Throws naming the fix when the binary is missing.
 */
export function nodeBinary(line) {
  if (line === CURRENT_LINE) return process.execPath;
  if (!NODE_LINES.includes(line)) {
    throw new RangeError(`@mcpkit/node-lines: no Node ${line} binary; lines: ${NODE_LINES.join(', ')}`);
  }
  const binary = join(dirname(require.resolve(`node-${line}/package.json`)), 'bin', 'node');
  if (!existsSync(binary)) {
    throw new Error(`@mcpkit/node-lines: the Node ${line} binary is missing at ${binary}; run npx pnpm install`);
  }
  return binary;
}

/** The version string (`v22.23.3`) of a line's binary, read from its package without starting it. */
export function nodeVersion(line) {
  if (line === CURRENT_LINE) return process.version;
  return `v${require(`node-${line}/package.json`).version}`;
}
