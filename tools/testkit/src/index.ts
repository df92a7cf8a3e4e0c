// The wire checker is published in @mcpkit/testing/wire; mcpkit's own suites reach it through here as before.
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
} from '@mcpkit/testing/wire';
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
