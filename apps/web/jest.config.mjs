// Jest project for the SPA: jsdom, native ESM, compiled by SWC with the workspace's shared options
// plus TSX and React's automatic JSX runtime.
// Run from the workspace root:  NODE_OPTIONS=--experimental-vm-modules npx jest -c apps/web/jest.config.mjs
import { fileURLToPath } from 'node:url';
import { swcOptions } from '../../tools/build/swc-options.mjs';

const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));

const webSwcOptions = {
  ...swcOptions,
  sourceMaps: 'inline',
  jsc: {
    ...swcOptions.jsc,
    parser: { ...swcOptions.jsc.parser, tsx: true, jsx: true },
    transform: { ...swcOptions.jsc.transform, react: { runtime: 'automatic' } },
  },
};

export default {
  displayName: 'web',
  rootDir: workspaceRoot,
  roots: ['<rootDir>/apps/web/src'],
  testEnvironment: '<rootDir>/apps/web/src/test/jsdom-environment.mjs',
  setupFiles: ['<rootDir>/apps/web/src/test/setup.mjs'],
  testMatch: ['<rootDir>/apps/web/src/**/*.spec.{ts,tsx}'],
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', webSwcOptions] },
  moduleNameMapper: {
    '^@lv/contracts$': '<rootDir>/libs/contracts/src/index.ts',
    '\\.css$': '<rootDir>/apps/web/src/test/style-stub.ts',
    // The browser build, as the SPA's bundler picks it from the package's "browser" field (Jest reads
    // only "main", whose Node build refuses a Blob).
    '^tus-js-client$': '<rootDir>/node_modules/tus-js-client/lib.es5/browser/index.js',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};
