// One SWC configuration for every server-side build and for Jest, so what runs in tests is
// compiled exactly like what runs in production (Nest and MikroORM need legacy decorators
// with emitted metadata, and class fields must not shadow injected properties).
export const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'es6', resolveFully: false },
  sourceMaps: true,
};
