export * from './page-cursor.js';
