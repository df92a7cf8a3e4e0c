// Issue 7 metric 6 and issue 14's size targets: minimal server bundles (plain JSON Schema, and with zod: raw and
// without zod's own bytes), the minimal client, and packages of a server-only install. Deterministic, so measured
// once outside the rounds. Also returns where each server bundle's bytes come from, for the JSON.

import { join } from 'node:path';
import { APP_DIR, type BundleBreakdown, IMPLEMENTATIONS, implementationSizes } from '../build';
import { serverInstallCounts } from '../install-size';
import { addSample } from '../report';
import type { SuiteContext } from './context';

/** Measures the size metrics; resolves with each implementation's server bundle breakdowns (plain and zod). */
export async function sizeSuite(
  context: SuiteContext,
): Promise<Partial<Record<string, { json?: BundleBreakdown; zod?: BundleBreakdown }>>> {
  const { samples } = context;
  const installs = serverInstallCounts(join(APP_DIR, '..', '..'));
  const breakdowns: Partial<Record<string, { json?: BundleBreakdown; zod?: BundleBreakdown }>> = {};
  for (const name of IMPLEMENTATIONS) {
    const sizes = await implementationSizes(name);
    if (sizes.server !== undefined) {
      addSample(samples, 'size-server-raw-bytes', name, sizes.server.raw);
      addSample(samples, 'size-server-gzip-bytes', name, sizes.server.gzip);
    }
    if (sizes.zodServer !== undefined) {
      addSample(samples, 'size-server-raw-bytes-zod', name, sizes.zodServer.raw);
      addSample(samples, 'size-server-nonzod-bytes-zod', name, sizes.zodServer.nonZod);
    }
    breakdowns[name] = { json: sizes.server?.breakdown, zod: sizes.zodServer?.breakdown };
    if (sizes.client !== undefined) {
      addSample(samples, 'size-client-raw-bytes', name, sizes.client.raw);
      addSample(samples, 'size-client-gzip-bytes', name, sizes.client.gzip);
    }
    if (name !== 'raw') addSample(samples, 'install-server-packages', name, installs[name]);
  }
  return breakdowns;
}
