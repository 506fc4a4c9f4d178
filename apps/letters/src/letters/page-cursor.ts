import { validationError } from '@lv/platform/errors';

export interface PagePosition {
  createdAt: string;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An opaque cursor for the next page: the position (created_at, id) of the last letter shown. */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): PagePosition {
  const [createdAt = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length || !ISO.test(createdAt) || !UUID.test(id) || Number.isNaN(Date.parse(createdAt))) {
    throw validationError({ cursor: 'This list position is not valid. Reload the list.' });
  }
  return { createdAt, id };
}
