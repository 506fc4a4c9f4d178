/**
 * Failures of the database's infrastructure rather than of the request: the server refused a new
 * connection (too many clients, starting up, shutting down), a connection broke, or the server
 * rolled a transaction back to break a deadlock or a serialization conflict. The same request can
 * succeed a moment later, so callers are told "try again" (SERVICE_UNAVAILABLE), not "we failed".
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000', '08001', '08003', '08004', '08006', // connection_exception and its kinds
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * The failures after which nothing of the transaction can have committed: the connection was
 * never made, or the server itself rolled the transaction back. Retrying the whole command is
 * safe. A connection lost mid-transaction is not among them: its COMMIT may have landed.
 */
const NOTHING_COMMITTED_SQLSTATES = new Set(['53300', '53400', '57P03', '40001', '40P01']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a database failure that says nothing about the request: worth a 503 and a retry. */
export function isTransientDatabaseError(error: unknown): boolean {
  const code = codeOf(error);
  if (code && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  // node-postgres reports a connection that died under a query by message only.
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && /^Connection terminated( unexpectedly| due to connection timeout)?$/.test(message);
}

/** True when the failed transaction certainly left nothing behind (see NOTHING_COMMITTED_SQLSTATES). */
export function isRetryableBeforeCommit(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && (NOTHING_COMMITTED_SQLSTATES.has(code) || code === 'ECONNREFUSED');
}
