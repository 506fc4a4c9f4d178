/**
 * Links that carry an access key (issue 29). The key rides in the fragment, `/access#k=<key>&owner=<id>`:
 * a browser never sends a fragment to a server, so it reaches no request log, proxy or Referer. Links
 * in e-mails sent before then carry it in the query (`/access?k=`); readers accept both, fragment first.
 */
export const KEY_LINK_PATH = '/access';

/** The parameter names a key may come under (spec 2, /vault/view: key, token, k, access, view, access_key). */
export const KEY_LINK_PARAMS = ['k', 'key', 'token', 'access', 'view', 'access_key'] as const;

/** `<publicUrl>/access#k=<key>&owner=<ownerId>`. */
export function keyLinkUrl(publicUrl: string, key: string, ownerId: string): string {
  const link = new URL(KEY_LINK_PATH, publicUrl);
  link.hash = new URLSearchParams({ k: key, owner: ownerId }).toString();
  return link.href;
}

/** A fragment's (`#a=1&b=2`) or a query's parameters. */
export const fragmentParams = (hash: string) => new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);

/** The first key-like value among some parameters. */
export function keyAmong(params: URLSearchParams, names: readonly string[] = KEY_LINK_PARAMS): string | null {
  for (const name of names) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return null;
}

/** A key link's key and owner, from its fragment, else its query (old e-mails). */
export function readKeyLink(url: Pick<URL, 'hash' | 'searchParams'>, names: readonly string[] = KEY_LINK_PARAMS): { key: string | null; owner: string | null } {
  const fragment = fragmentParams(url.hash);
  const key = keyAmong(fragment, names);
  if (key) return { key, owner: fragment.get('owner') };
  return { key: keyAmong(url.searchParams, names), owner: url.searchParams.get('owner') };
}
