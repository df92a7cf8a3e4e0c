export { type CheckedTransport, type CheckWireOptions, checkWire, type WireViolation } from './checked-transport';
export { REVISIONS, type Revision, type Sender, WireLedger, type WireSchema, wireSchema } from './wire-schema';
