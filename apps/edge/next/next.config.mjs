// The workspace's @mcpkit packages are TypeScript source behind the `@mcpkit/source` export condition; webpack is
// told to take that condition and to compile them. A published app imports the built packages and needs none of it.
/** @type {import('next').NextConfig} */
const nextConfig = {
  transpilePackages: [
    '@mcpkit/jsonrpc-core',
    '@mcpkit/protocol',
    '@mcpkit/server',
    '@mcpkit/tasks',
    '@mcpkit/transport-http',
  ],
  webpack(config) {
    config.resolve.conditionNames = [
      '@mcpkit/source',
      ...(config.resolve.conditionNames ?? ['import', 'module', 'require', 'node', 'default']),
    ];
    config.resolve.extensionAlias = { '.js': ['.ts', '.js'] };
    return config;
  },
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
