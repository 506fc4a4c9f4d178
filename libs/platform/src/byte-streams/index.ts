export * from './byte-stream-listener.js';
export * from './stream-inspector.js';
