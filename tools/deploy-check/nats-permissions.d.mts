// Types of tools/deploy-check/nats-permissions.mjs for TypeScript consumers (its specs).
export interface NatsUser {
  user: string;
  stream: string | null;
  serves: string[];
  calls: string[];
  deny: string[];
  consumes: string[];
  erasesOwnMessages?: boolean;
  why: string;
}
export const NATS_USERS: readonly NatsUser[];
export function streamNameFor(service: string): string;
export function passwordVariable(user: string): string;
export function inboxPrefixFor(user: string): string;
export function permissionsOf(user: NatsUser): { publish: string[]; subscribe: string[] };
export function renderAuthConf(users?: readonly NatsUser[]): string;
export const AUTH_CONF_PATHS: string[];
