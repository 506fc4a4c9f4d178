import { sendRequest, type HttpMethod, type RequestOptions } from './client.js';
import type { components, paths } from './openapi.gen.js';

// Calls typed from the gateway's OpenAPI document (openapi.gen.ts): the path must be one the gateway
// documents for the method, and its path and query parameters, its body and its answer are the
// document's. A renamed route or field then fails the SPA's type check. What sends is given: the
// session-aware ApiClient (api.ts: token, one refresh on 401, the password again on SUDO_REQUIRED),
// or a bare exchange for callers without a session (bareHttp).

/** A named shape of the document (components.schemas), e.g. Schema<'LetterDto'>. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/** The documented paths that answer the method. */
export type PathsFor<M extends Method> = { [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P }[keyof paths];

type OperationParameters<O> = O extends { parameters: infer Params } ? Params : never;
type PathPart<O> = OperationParameters<O> extends { path: infer Path } ? { path: Path } : { path?: never };
type QueryPart<O> = [NonNullable<OperationParameters<O> extends { query?: infer Query } ? Query : never>] extends [never]
  ? { query?: never }
  : OperationParameters<O> extends { query: infer Query } ? { query: Query } : { query?: NonNullable<OperationParameters<O> extends { query?: infer Query } ? Query : never> };
type ContentOf<T> = T extends { content: infer Content } ? Content[keyof Content] : never;
type BodyPart<O> = [ContentOf<NonNullable<O extends { requestBody?: infer Body } ? Body : never>>] extends [never]
  ? { body?: never }
  : O extends { requestBody: infer Body } ? { body: ContentOf<Body> } : { body?: ContentOf<NonNullable<O extends { requestBody?: infer Body } ? Body : never>> };

/** What a call takes besides its path: path and query parameters, the JSON body, an AbortSignal. */
export type CallOptions<O> = PathPart<O> & QueryPart<O> & BodyPart<O> & { signal?: AbortSignal };

type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** The answer's JSON on success; undefined for an answer without a body (204). */
export type SuccessBody<O> = {
  [S in Extract<keyof Responses<O>, SuccessStatus>]: Responses<O>[S] extends { content: infer Content } ? Content[keyof Content] : undefined;
}[Extract<keyof Responses<O>, SuccessStatus>];

/** The options argument may be left out when nothing in it is required. */
type OptionsArgument<O> = object extends CallOptions<O> ? [options?: CallOptions<O>] : [options: CallOptions<O>];

type Call<M extends Method> = <P extends PathsFor<M>>(path: P, ...options: OptionsArgument<Operation<P, M>>) => Promise<SuccessBody<Operation<P, M>>>;

export interface TypedApi {
  get: Call<'get'>;
  post: Call<'post'>;
  put: Call<'put'>;
  patch: Call<'patch'>;
  del: Call<'delete'>;
}

type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** The URL for a documented path: `{name}` segments filled in (encoded), then the query's defined values. */
export function urlFor(path: string, pathParams?: Record<string, string | number>, query?: Record<string, QueryValue>): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathParams?.[name];
    if (value === undefined) throw new Error(`${path} needs its ${name} parameter`);
    return encodeURIComponent(String(value));
  });
  // encodeURIComponent rather than URLSearchParams: a space is %20, as in the path, not '+'.
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(item))}`);
  }
  return pairs.length ? `${filled}?${pairs.join('&')}` : filled;
}

interface LooseOptions {
  path?: Record<string, string | number>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

/** Sends one request to a URL: the ApiClient's `request`, or sendRequest. */
export type Send = (url: string, options: RequestOptions) => Promise<unknown>;

export function createTypedApi(send: Send): TypedApi {
  const call = (method: HttpMethod) => (path: string, options: LooseOptions = {}) =>
    send(urlFor(path, options.path, options.query), { method, body: options.body, signal: options.signal });
  // The generic signatures are the document's; one untyped sender serves them all.
  return { get: call('GET'), post: call('POST'), put: call('PUT'), patch: call('PATCH'), del: call('DELETE') } as TypedApi;
}

/**
 * Calls sent bare (sendRequest): no session to refresh, and a refused call never signs anyone out of
 * the tab. For the public routes, and with `token` for a family member's viewer token.
 */
export function bareHttp(token?: string | null): TypedApi {
  return createTypedApi((url, options) => sendRequest((input, init) => globalThis.fetch(input, init), url, { ...options, token }));
}
