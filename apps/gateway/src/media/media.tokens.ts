/** The gateway's HTTP client of vault-media's byte-stream listener (VaultMediaHttp). */
export const VAULT_MEDIA_HTTP = Symbol('VAULT_MEDIA_HTTP');
