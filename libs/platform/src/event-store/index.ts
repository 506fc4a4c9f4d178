export * from './types.js';
export * from './decider.js';
export * from './event-store.js';
export * from './projection.js';
export * from './command-handler.js';
export * from './schema.js';
export * from './outbox-relay.js';
export * from './durable-consumer.js';
