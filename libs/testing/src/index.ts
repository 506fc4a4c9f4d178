export * from './database.js';
export * from './nats-server.js';
export * from './decider-specification.js';
export * from './keys.js';
export * from './scratch-build.js';
