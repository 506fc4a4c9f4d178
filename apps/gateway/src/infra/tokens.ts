/** Injection tokens for the gateway's outside connections and settings (none of them are classes Nest can key on). */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');
export const REDIS = Symbol('REDIS');
export const RPC_CLIENT = Symbol('RPC_CLIENT');
export const ACCESS_TOKEN_VERIFIER = Symbol('ACCESS_TOKEN_VERIFIER');
export const NATS_PROBE = Symbol('NATS_PROBE');
export const STATS_PROVIDERS = Symbol('STATS_PROVIDERS');
export const VIEWER_TOKEN_VERIFIER = Symbol('VIEWER_TOKEN_VERIFIER');
