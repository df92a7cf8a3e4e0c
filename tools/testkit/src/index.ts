export { type CheckedTransport, type CheckWireOptions, checkWire, type WireViolation } from './checked-transport';
export {
  formatOutcomes,
  judgeOutcomes,
  readScenarioOutcome,
  runToCompletion,
  type ScenarioOutcome,
} from './conformance';
export { REVISIONS, type Revision, type Sender, WireLedger, type WireSchema, wireSchema } from './wire-schema';
