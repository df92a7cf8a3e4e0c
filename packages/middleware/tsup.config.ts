import { packageBuild } from '../../tsup.base';

// One entry per built-in: an application pays (in bytes and in module loading) only for the subpaths it imports, and
// `@opentelemetry/api` is reached only from ./tracing and ./metrics, so it can stay an optional peer dependency.
export default packageBuild({
  index: 'src/index.ts',
  'logging/index': 'src/logging/index.ts',
  'tracing/index': 'src/tracing/index.ts',
  'metrics/index': 'src/metrics/index.ts',
  'rate-limit/index': 'src/rate-limit/index.ts',
  'timeouts/index': 'src/timeouts/index.ts',
  'keep-alive/index': 'src/keep-alive/index.ts',
  'client/index': 'src/client/index.ts',
  'transport/index': 'src/transport/index.ts',
});
