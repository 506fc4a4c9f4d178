import { SetMetadata } from '@nestjs/common';
import { type Caller, type ViewerScope, isViewerScope } from '../auth/index.js';

/** A viewer of the owner's vault holding one scope. */
export interface ViewerReader {
  kind: 'viewer';
  scope: ViewerScope;
}

/**
 * Who may call a read: the vault's owner, an operator, a viewer with a scope, or an admin (a signed-in
 * user whose token carries the admin claim: the admin dashboard's reads across every account).
 */
export type Reader = 'owner' | 'operator' | 'admin' | ViewerReader;
/** Who may call a write: never a viewer (a viewer reads a vault on the owner's behalf, it changes nothing). */
export type Writer = 'owner' | 'operator';

/** The access a handler declares. Every RPC handler declares one, or the service refuses to start. */
export type RpcAccess =
  | { access: 'public' }
  | { access: 'read'; readers: readonly Reader[] }
  | { access: 'write'; writers: readonly Writer[] };

export const RPC_ACCESS = 'lv:rpc-access';

export const viewerOf = (scope: ViewerScope): ViewerReader => {
  if (!isViewerScope(scope)) throw new Error(`viewerOf: unknown viewer scope ${JSON.stringify(scope)}`);
  return { kind: 'viewer', scope };
};

/** Declares the readers of a query handler, e.g. @Readers('owner', viewerOf('letters')). */
export const Readers = (...readers: [Reader, ...Reader[]]) => {
  if (readers.length === 0) throw new Error('@Readers() needs at least one reader; use @PublicRpc() to open a handler');
  return SetMetadata<string, RpcAccess>(RPC_ACCESS, { access: 'read', readers });
};

/**
 * Declares the writers of a command handler. The type admits no viewer; the run-time check keeps it so
 * for a declaration built from `any` or a cast.
 */
export const Writers = (...writers: [Writer, ...Writer[]]) => {
  if (writers.length === 0) throw new Error('@Writers() needs at least one writer');
  for (const writer of writers as readonly unknown[]) {
    if (writer !== 'owner' && writer !== 'operator') throw new Error(`@Writers() accepts only 'owner' and 'operator', not ${JSON.stringify(writer)}: a viewer never writes`);
  }
  return SetMetadata<string, RpcAccess>(RPC_ACCESS, { access: 'write', writers });
};

/** Whether a verified caller matches a handler's declaration. Writes never admit a viewer, whatever was declared. */
export function callerMayUse(access: RpcAccess, caller: Caller): boolean {
  switch (access.access) {
    case 'public':
      return true;
    case 'write':
      if (caller.kind === 'viewer') return false;
      return access.writers.some((writer) => (writer === 'owner' ? caller.kind === 'user' : caller.kind === 'operator'));
    case 'read':
      return access.readers.some((reader) => {
        if (reader === 'owner') return caller.kind === 'user';
        if (reader === 'operator') return caller.kind === 'operator';
        if (reader === 'admin') return caller.kind === 'user' && caller.isAdmin;
        return caller.kind === 'viewer' && caller.scopes.includes(reader.scope);
      });
  }
}

/** A short text of a declaration, for start-up errors and test names. */
export function describeAccess(access: RpcAccess): string {
  if (access.access === 'public') return 'public';
  const names = (access.access === 'read' ? access.readers : access.writers).map((r) => (typeof r === 'string' ? r : `viewer:${r.scope}`));
  return `${access.access}(${names.join(', ')})`;
}
