import { scenarios } from './scenarios';

// `pnpm start <server-url>`: runs the scenario named by MCP_CONFORMANCE_SCENARIO (how the conformance suite calls it).

const name = process.env.MCP_CONFORMANCE_SCENARIO;
const target = process.argv[2];
if (name === undefined || target === undefined) {
  console.error('usage: MCP_CONFORMANCE_SCENARIO=<scenario> pnpm start <server-url>');
  process.exit(2);
}
const scenario = scenarios[name];
if (scenario === undefined) {
  console.error(`everything-client: unknown scenario '${name}'; known: ${Object.keys(scenarios).join(', ')}`);
  process.exit(2);
}
try {
  await scenario(new URL(target));
  process.exit(0);
} catch (error) {
  console.error(`everything-client: scenario '${name}' failed:`, error);
  process.exit(1);
}
