// Jest runs in native ESM mode (Nest 12 and MikroORM 7 are ESM-only), compiled by SWC with the same
// options as the production build. Workspace libraries resolve to their TypeScript sources.
import { swcOptions } from './tools/build/swc-options.mjs';

const shared = {
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  transform: { '^.+\\.tsx?$': ['@swc/jest', { ...swcOptions, sourceMaps: 'inline' }] },
  moduleNameMapper: {
    '^@lv/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@lv/([a-z-]+)/([a-z-]+)$': '<rootDir>/libs/$1/src/$2/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};

export default {
  rootDir: '.',
  // A global option (ignored inside `projects`): integration specs start real services.
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'unit', testEnvironment: 'node', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'], testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.int\\.spec\\.ts$', '\\.e2e\\.spec\\.ts$', '/apps/web/'] },
    '<rootDir>/apps/web/jest.config.mjs',
    { ...shared, displayName: 'int', testEnvironment: 'node', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int.spec.ts'] , slowTestThreshold: 30 },
  ],
};
