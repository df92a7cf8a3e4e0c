// The wire checker is published in @mcpkit/testing/wire; mcpkit's own suites reach it through here as before. By
// path, not by package name: @mcpkit/testing depends on server and client, whose tests depend on this kit, and a
// dependency here would close that loop in the build graph.
export {
  type CheckedTransport,
  type CheckWireOptions,
  checkWire,
  formatViolation,
  REVISIONS,
  type Revision,
  type Sender,
  WireLedger,
  type WireSchema,
  type WireViolation,
  WireViolationError,
  wireSchema,
} from '../../../packages/testing/src/wire/index';
export {
  formatOutcomes,
  judgeOutcomes,
  readScenarioOutcome,
  runToCompletion,
  type ScenarioOutcome,
} from './conformance';
export {
  type ConformanceCli,
  collectOutcomes,
  conformanceCli,
  type ListedScenario,
  type NotScored,
  parseRequirements,
  parseScenarioList,
  parseScenarioListing,
  type RequirementSet,
  requirementScenarios,
  runConformanceCli,
  wiresOf,
} from './conformance-cli';
export {
  duplicateRuns,
  type ExpectedFailures,
  formatRuns,
  inPool,
  judgeRuns,
  type RunOutcome,
  readExpectedFailures,
} from './conformance-expectations';
export {
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceRun,
  type ExpectEqual,
  expectClean,
  type ProblemMessages,
  runConformance,
} from './conformance-plan';
