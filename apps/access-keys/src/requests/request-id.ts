import { createHash, randomUUID } from 'node:crypto';

/**
 * A request's id: with the client's submission id, a UUID version 5 (RFC 9562) named by it in the
 * owner's id as the namespace, so every retry of one form to one owner names the same request and
 * the same id sent to another owner names another. Without one, a random id (every call a new request).
 */
export function requestIdOf(ownerId: string, submissionId: string | null): string {
  if (submissionId === null) return randomUUID();
  const namespace = Buffer.from(ownerId.replaceAll('-', ''), 'hex');
  const bytes = createHash('sha1').update(namespace).update(submissionId.toLowerCase()).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
