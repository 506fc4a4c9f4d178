export * from './database.js';
export * from './nats-server.js';
export * from './decider-specification.js';
export * from './keys.js';
export * from './scratch-build.js';
export * from './viewer-issuer.js';
export * from './reader-matrix.js';
export * from './slow-client.js';
