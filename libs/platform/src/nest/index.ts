export * from './caller.js';
export * from './rpc-caller.guard.js';
export * from './rpc-exception.filter.js';
export * from './rpc-client.js';
export * from './payload.js';
export * from './rpc-handler.js';
export * from './service-core.js';
