// Three jest projects:
//   unit         *.spec.ts       pure logic, typed fakes, no infrastructure
//   integration  *.int-spec.ts   real Kafka, PostgreSQL and devnet chains started by `npm test`
//   e2e          *.e2e-spec.ts   real HTTP against the running apps (libs/testing starts them)
// Run through `npm test`, which starts the infrastructure and exports its addresses.
const { swcOptions, jestModuleNameMapper } = require('./tools/build/swc-config.js');

const swc = swcOptions();
const transform = {
  '^.+\\.(t|j)s$': ['@swc/jest', { ...swc, swcrc: false, sourceMaps: 'inline' }],
  // The OTLP exporters load `http` with import(), which jest's CommonJS runtime refuses without
  // --experimental-vm-modules: compiled like our sources, it is a require.
  '/@opentelemetry/otlp-exporter-base/.+\\.cjs$': [
    '@swc/jest',
    { ...swc, swcrc: false, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } },
  ],
};
const common = {
  testEnvironment: 'node',
  transform,
  moduleNameMapper: jestModuleNameMapper(),
  moduleFileExtensions: ['ts', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Build output (the apps, and the @swapgw/sdk package of tools/build/build-sdk.mjs, whose
  // package.json would collide with libs/sdk's in jest's module map) is never a test's module.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  // NestJS 12, @scure/btc-signer and its @noble / @scure / micro-packed dependencies ship as ES
  // modules only; Node 24 requires them as they are, jest's CommonJS runtime needs them compiled
  // like our sources, and so does the OTLP exporters' transport (see transform). Only a file's
  // innermost node_modules counts: @cosmjs/crypto nests its own ESM-only @noble and @scure.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|@scure|@noble|micro-packed|@opentelemetry/otlp-exporter-base)/)(?!.*/node_modules/)',
  ],
  setupFiles: ['reflect-metadata'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/timeouts.integration.js'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{apps,libs}/**/*.e2e-spec.ts'],
      // Starts the five apps once (libs/testing) and exports GATEWAY_URL / GATEWAY_URLS to the suites.
      globalSetup: '<rootDir>/libs/testing/src/jest/e2e-global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/jest/e2e-global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/tools/jest/timeouts.e2e.js'],
    },
  ],
};
