import { type AuthInfo, ContextVariables, type JsonRpcNotification, type MessageInfo } from '@mcpkit/jsonrpc-core';
import type { Era } from '@mcpkit/protocol';
import type { ContextVariableMap } from '../middleware/variables';
import type { ServerSession } from './session';

/**
 * What middleware knows about an inbound notification (`notifications/initialized`, `notifications/cancelled`,
 * `notifications/roots/list_changed`, an extension's own). Its result is ignored; a middleware that does not call
 * `next` swallows the notification.
 */
export class ServerNotificationContext<V extends object = ContextVariableMap> extends ContextVariables<V> {
  readonly kind = 'notification' as const;
  readonly method: string;
  readonly message: JsonRpcNotification;
  /** The era, when known: the session's, or modern for a notification with the 2026-07-28 envelope. */
  readonly era: Era | undefined;
  /** The protocol version, when known. */
  readonly protocolVersion: string | undefined;
  /** The session it arrived on; `undefined` on stateless HTTP. */
  readonly session: ServerSession | undefined;
  readonly info: MessageInfo;

  /** @internal Built by the server. */
  constructor(
    message: JsonRpcNotification,
    info: MessageInfo,
    session: ServerSession | undefined,
    era: Era | undefined,
    protocolVersion: string | undefined,
  ) {
    super();
    this.message = message;
    this.method = message.method;
    this.info = info;
    this.session = session;
    this.era = era;
    this.protocolVersion = protocolVersion;
  }

  /** The notification's params as received. */
  get params(): Record<string, unknown> | undefined {
    return this.message.params as Record<string, unknown> | undefined;
  }

  /** The authenticated identity, when the transport or auth layer verified one. */
  get auth(): AuthInfo | undefined {
    return this.info.auth;
  }
}
