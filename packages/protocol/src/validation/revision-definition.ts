import type { ProtocolVersion } from '../versions.js';
import type { Validator } from './kit.js';

/** The protocol revisions whose messages can be validated: every known revision (each has an official JSON Schema). */
export type SchemaRevision = ProtocolVersion;

/**
 * Everything one revision's validators are compiled from: a validator per `$defs` type of its schema, and which type
 * each method uses. Written by hand from that revision's `schema.json`; tests hold it to the schema.
 */
export interface RevisionDefinition {
  readonly version: SchemaRevision;
  /** One validator per type of the schema, under the schema's name. */
  readonly types: Readonly<Record<string, Validator>>;
  /**
   * `true` from 2025-11-25 on, where `CallToolRequest` & co. carry `jsonrpc` and `id` themselves. Before, they are
   * `{method, params}` and a message must also pass the `JSONRPCRequest` / `JSONRPCNotification` envelope type.
   */
  readonly typesIncludeEnvelope: boolean;
  /** Method → request type name, per direction. */
  readonly clientRequests: Readonly<Record<string, string>>;
  readonly serverRequests: Readonly<Record<string, string>>;
  /** Method → notification type name, per direction. */
  readonly clientNotifications: Readonly<Record<string, string>>;
  readonly serverNotifications: Readonly<Record<string, string>>;
  /**
   * Method → type name of the `result` member of its response, or a validator where the result depends on more than
   * one type (2026-07-28 requests that may answer `input_required`).
   */
  readonly results: Readonly<Record<string, string | Validator>>;
  /** Envelope type names. */
  readonly requestEnvelope: string;
  readonly notificationEnvelope: string;
  readonly errorResponse: string;
  /** 2025-03-26 only: JSON-RPC batches (arrays of messages) are part of the protocol. */
  readonly batches: boolean;
  /** Validators the hot path needs that are not a schema type of their own in this revision. */
  readonly extras?: {
    /** 2026-07-28: `InputRequiredResult` plus the rule "at least one of `inputRequests` / `requestState`". */
    readonly inputRequiredResult?: Validator;
  };
}
