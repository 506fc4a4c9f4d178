export * from './errors.js';
export * from './tiers.js';
export * from './identity.js';
export * from './letters.js';
export * from './media.js';
export * from './messaging.js';
export * from './api.js';
export * from './validation.js';
