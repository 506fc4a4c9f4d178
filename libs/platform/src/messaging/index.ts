export * from './subjects.js';
export * from './jetstream.js';
export * from './connection.js';
