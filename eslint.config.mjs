// ESLint for the whole workspace (`npm run lint`, and the lint tier of `npm test`).
// TypeScript files get typescript-eslint's type-checked rules through the project service: each file is
// checked with the tsconfig.json nearest to it (root tsconfig.json, or apps/web/tsconfig.json for the SPA),
// so lint sees the same types as `tsc`. The point is promises: a floating or misused one loses errors.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default defineConfig(
  {
    // Generated or local output, never sources.
    ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', '**/.data/**', '**/.nx/**', '**/test-results/**', '**/playwright-report/**'],
  },
  {
    // One import statement per module: type and value names share it (`import { type A, b } from 'x'`).
    rules: { 'no-duplicate-imports': 'error' },
  },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore marks a parameter or a left-out property as unused on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Off for now: tsconfig has noUncheckedIndexedAccess, so the `!` on `rows[0]!` is needed and this rule
      // no longer fights it, but it also flags 184 `call(...) as T` casts whose type arguments should be
      // written instead (mostly in specs): turned on once those are rewritten.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // A switch over a union names every member (or says in its default that it handles the rest), so a
      // member added to the union is a compile-time finding at each switch that forgot it.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false }],
    },
  },
  {
    // Specs and their support code read untyped JSON and YAML (HTTP bodies, manifests) and assert its shape
    // with expect(), fake async APIs with `async () => value`, and pass jest mocks' methods around:
    // the any-tracking, require-await and unbound-method rules only add noise there. The promise rules
    // (no-floating-promises, no-misused-promises, await-thenable) stay on everywhere.
    files: ['**/*.spec.{ts,tsx}', '**/test/**/*.{ts,tsx}', 'apps/web-e2e/**/*.ts', 'apps/web/src/test/**'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Plain JavaScript (tools' scripts, jest configs): typed by inference through tsconfig.eslint-js.json
    // (allowJs), which is enough for the promise rules; the rest of the type-checked set would only
    // report JavaScript's untyped values.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.recommended],
    languageOptions: {
      parserOptions: { project: './tsconfig.eslint-js.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // Runs in the browser before the bundle, outside every project.
    files: ['apps/web/public/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
);
