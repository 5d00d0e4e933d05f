import { ConnectorLimitReachedError, ConnectorNotFoundError, InvalidRequestError } from '../errors.js';

/** CONNECTOR_LIMIT_REACHED for a create over the per-tenant limit. */
export function limitReached(user: string, max: number): ConnectorLimitReachedError {
  return new ConnectorLimitReachedError(`user ${JSON.stringify(user)} already holds ${max} connectors, the most one end user may hold; delete one first`, {
    details: [{ path: '/external_user_id', message: `holds ${max} connectors (the limit)` }],
  });
}

/** Purging a live client's data is refused: revoke it first. */
export function notRevoked(clientId: string): InvalidRequestError {
  return new InvalidRequestError(`client ${clientId} is unknown or not revoked; only a revoked client's connectors can be purged`, {
    details: [{ path: '<client-id>', message: 'must be a revoked client' }],
  });
}

/**
 * The one answer for a connector id the tenant does not hold: unknown, deleted, another user's or
 * another client's all read alike, and the id is not repeated back (it is the caller's input).
 */
export function connectorNotFound(): ConnectorNotFoundError {
  return new ConnectorNotFoundError('no connector with this id for this user', { details: [{ path: '/id', message: 'not found' }] });
}
