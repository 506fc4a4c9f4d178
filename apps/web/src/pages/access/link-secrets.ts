import { useEffect, useState } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router-dom';
import { fragmentParams, KEY_LINK_PARAMS, keyAmong } from '@lv/contracts';
import { useHydrated } from '../../lib/use-hydrated.js';

/**
 * Secrets a link may carry (issue 29): an access key (`#k=`, or `?k=` in e-mails sent before the key
 * moved to the fragment) and a view session's secret (`?session=` from addresses the viewer used to
 * write). They are read once, when the page opens, and taken out of the address at once: an address
 * is kept in history, synced across devices, shown over a shoulder, and a query is sent to servers.
 */
export interface LinkSecrets {
  key: string | null;
  /** The vault the link is for: not a secret, it stays in (or moves to) the query. */
  owner: string | null;
  session: string | null;
}

const SECRET_PARAMS: readonly string[] = [...KEY_LINK_PARAMS, 'session'];

type Address = Pick<Location, 'pathname' | 'search' | 'hash'>;

/** What a link carries: the fragment first, then the query. */
export function readLinkSecrets({ search, hash }: Address): LinkSecrets {
  const fragment = fragmentParams(hash);
  const query = new URLSearchParams(search);
  const value = (name: string) => fragment.get(name)?.trim() || query.get(name)?.trim() || null;
  return { key: keyAmong(fragment) ?? keyAmong(query), owner: value('owner'), session: value('session') };
}

/**
 * The same address without its secrets: other query parameters stay, the owner moves from the
 * fragment to the query (the request form reads it there), a plain `#anchor` is kept.
 */
export function addressWithoutSecrets(address: Address): string {
  const fragment = fragmentParams(address.hash);
  const query = new URLSearchParams(address.search);
  for (const name of SECRET_PARAMS) query.delete(name);
  const fragmentOwner = fragment.get('owner');
  if (fragmentOwner && !query.has('owner')) query.set('owner', fragmentOwner);
  const fragmentIsLink = fragmentOwner !== null || SECRET_PARAMS.some((name) => fragment.has(name));
  const search = query.size ? `?${query.toString()}` : '';
  return `${address.pathname}${search}${fragmentIsLink ? '' : address.hash}`;
}

const NO_SECRETS: LinkSecrets = { key: null, owner: null, session: null };

/**
 * The link's secrets as the page first saw them; the address is rewritten without them right after
 * the first render (the router's replace: `history.replaceState`, no new history entry). An effect,
 * not a layout effect: the router subscribes to its history in its own layout effect, which runs
 * after its children's, so a replace made earlier would change the address behind the router's back.
 * A prerendered page (/access) was rendered with no link: while React takes its markup over, the page
 * renders as it was prerendered (a different first render is a hydration error, issue 35), and with
 * the link's secrets right after.
 */
export function useLinkSecrets(): LinkSecrets {
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const [secrets] = useState(() => readLinkSecrets(location));
  const current = `${location.pathname}${location.search}${location.hash}`;
  const cleaned = addressWithoutSecrets(location);
  const state: unknown = location.state;
  useEffect(() => {
    if (cleaned !== current) void navigate(cleaned, { replace: true, state });
  }, [cleaned, current, navigate, state]);
  return hydrated ? secrets : NO_SECRETS;
}
