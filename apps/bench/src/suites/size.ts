// Issue 7 metric 6: minimal server and client bundles (raw, gzip) and packages of a server-only install. Deterministic,
// so measured once outside the rounds. Also returns where mcpkit's server bundle bytes come from, for the JSON.

import { join } from 'node:path';
import { APP_DIR, type BundleBreakdown, IMPLEMENTATIONS, implementationSizes } from '../build';
import { serverInstallCounts } from '../install-size';
import { addSample } from '../report';
import type { SuiteContext } from './context';

/** Measures the size metrics; resolves with each implementation's server bundle breakdown. */
export async function sizeSuite(context: SuiteContext): Promise<Partial<Record<string, BundleBreakdown>>> {
  const { samples } = context;
  const installs = serverInstallCounts(join(APP_DIR, '..', '..'));
  const breakdowns: Partial<Record<string, BundleBreakdown>> = {};
  for (const name of IMPLEMENTATIONS) {
    const sizes = await implementationSizes(name);
    addSample(samples, 'size-server-raw-bytes', name, sizes.server.raw);
    addSample(samples, 'size-server-gzip-bytes', name, sizes.server.gzip);
    breakdowns[name] = sizes.server.breakdown;
    if (sizes.client !== undefined) {
      addSample(samples, 'size-client-raw-bytes', name, sizes.client.raw);
      addSample(samples, 'size-client-gzip-bytes', name, sizes.client.gzip);
    }
    if (name !== 'raw') addSample(samples, 'install-server-packages', name, installs[name]);
  }
  return breakdowns;
}
