export { type CheckedTransport, type CheckWireOptions, checkWire, type WireViolation } from './checked-transport';
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
export { REVISIONS, type Revision, type Sender, WireLedger, type WireSchema, wireSchema } from './wire-schema';
