/** Every service of the system, present and to come (subjects, streams and stats providers name them). */
export const SERVICES = ['identity', 'vault-media', 'letters', 'timeline', 'court-journal', 'access-keys', 'notifications', 'billing'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** JetStream stream holding one service's events. */
export function streamNameFor(service: ServiceName): string {
  return `LV_${service.replace(/-/g, '_').toUpperCase()}`;
}
