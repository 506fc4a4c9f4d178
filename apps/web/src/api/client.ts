import { ErrorCodes, errorCodeForStatus, isErrorCode, type ErrorBody, type ErrorCode } from '@lv/contracts';

/** An error answer from the gateway: the HTTP status and the ErrorBody it carried. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;

  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  get code(): ErrorCode {
    return this.body.code;
  }

  /** 4xx: the request itself was refused; repeating it unchanged will not help. */
  get isClientError(): boolean {
    return this.status >= 400 && this.status < 500;
  }
}

/** The request never got an HTTP answer (offline, DNS, connection refused, aborted). */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

export interface SendOptions extends RequestOptions {
  /** Bearer token for the Authorization header. */
  token?: string | null;
}

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Turns any error answer into an ErrorBody, even when the body is not the gateway's JSON. */
export function toErrorBody(status: number, payload: unknown): ErrorBody {
  if (payload && typeof payload === 'object') {
    const p = payload as Partial<ErrorBody>;
    if (isErrorCode(p.code) && typeof p.message === 'string') return p as ErrorBody;
  }
  const code: ErrorCode = errorCodeForStatus(status) ?? 'INTERNAL';
  return { code, message: ErrorCodes[code].message };
}

async function readPayload(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * One HTTP exchange with the gateway: JSON in, JSON out, cookies included (the refresh token is an
 * httpOnly cookie the SPA never reads). Throws ApiError for error statuses, NetworkError when there
 * is no answer at all. No session logic here: see createApiClient.
 */
export async function sendRequest<T>(fetchImpl: FetchLike, url: string, options: SendOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'include',
      signal: options.signal,
    });
  } catch (cause) {
    throw new NetworkError('The vault could not be reached. Check your connection and try again.', { cause });
  }
  const payload = await readPayload(response);
  if (!response.ok) throw new ApiError(response.status, toErrorBody(response.status, payload));
  return payload as T;
}

export interface ApiClientDeps {
  /** Defaults to the global fetch. */
  fetch?: FetchLike;
  /** Prefix for every path; '' means same origin (the gateway serves the SPA and /api). */
  baseUrl?: string;
  /** The in-memory access token, if any. */
  getAccessToken(): string | null;
  /** Obtains a fresh access token with the refresh cookie; resolves true when one was issued. */
  refresh(): Promise<boolean>;
  /** Called when the session is gone for good (a 401 that a refresh could not cure). */
  onUnauthenticated(): void;
  /**
   * Sudo mode: a sensitive action was refused SUDO_REQUIRED. Resolves true once the owner has given his
   * password again (a token carrying the new proof is in place), false when he cancelled. Without it,
   * the refusal is the caller's to show.
   */
  confirmIdentity?(): Promise<boolean>;
}

/** Sends one request with the session's care. Screens call through the typed layer over it (api.ts's `http`). */
export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
}

/**
 * The session-aware client under every screen's calls. Each call carries `Authorization: Bearer <token>`; on a 401 it
 * refreshes the session once and retries once; if that does not help, the session is dropped locally
 * (the route guard then sends the user to /auth) and the ApiError is rethrown. A sensitive action
 * refused SUDO_REQUIRED is retried once the owner has given his password again (confirmIdentity).
 */
export function createApiClient(deps: ApiClientDeps): ApiClient {
  const fetchImpl: FetchLike = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseUrl = deps.baseUrl ?? '';

  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    try {
      return await requestWithSession<T>(path, options);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'SUDO_REQUIRED' || !deps.confirmIdentity) throw error;
      if (!(await deps.confirmIdentity())) throw error;
      return requestWithSession<T>(path, options);
    }
  }

  async function requestWithSession<T>(path: string, options: RequestOptions): Promise<T> {
    const url = `${baseUrl}${path}`;
    const hadToken = deps.getAccessToken();
    try {
      return await sendRequest<T>(fetchImpl, url, { ...options, token: hadToken });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      const refreshed = await deps.refresh().catch(() => false);
      if (!refreshed) {
        deps.onUnauthenticated();
        throw error;
      }
      try {
        return await sendRequest<T>(fetchImpl, url, { ...options, token: deps.getAccessToken() });
      } catch (retryError) {
        if (retryError instanceof ApiError && retryError.status === 401) deps.onUnauthenticated();
        throw retryError;
      }
    }
  }

  return { request };
}

/** The text a person should see for an error, with a fallback for anything that is not an ApiError. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.body.message) return error.body.message;
  return fallback;
}
