// @mcpkit/testing/wire: the wire checker. Validates every message against the official JSON Schema of its MCP
// revision (bundled in the package, see README "Where the schemas come from").
export {
  type CheckedTransport,
  type CheckWireOptions,
  checkWire,
  formatViolation,
  type WireViolation,
  WireViolationError,
} from './checked-transport';
export { REVISIONS, type Revision, type Sender, WireLedger, type WireSchema, wireSchema } from './wire-schema';
