export * from './subjects.js';
export * from './jetstream.js';
