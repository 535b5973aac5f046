// Lint for the whole monorepo (`npm run lint` = `eslint .`).
// - Module boundaries are real rules, from the Nx tags in each project.json:
//     type:app | feature | data-access | contracts | util | devnet | testing   and   scope:<service> | shared
//   type:devnet (libs/devnet) and type:testing (libs/testing) load devDependencies (anvil, solc,
//   litesvm, ...), which a production install (`npm ci --omit=dev`) does not have: production code
//   must not import them. Test code may: specs, test/ folders, tools/ and bench/ (TEST_CODE below).
// - Type-aware checks for the mistakes that hurt a message-driven service most: a promise nobody
//   awaits (lost error, lost ordering) and a switch over a union that misses a case.
// - Formatting belongs to Prettier; eslint-config-prettier switches off the rules that overlap.
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const SERVICE_SCOPES = ['gateway', 'quote', 'planner', 'signer', 'limit-order'];

/** The imports that make a library do I/O or depend on a framework: contracts must stay pure. */
const IO_AND_FRAMEWORK_PACKAGES = [
  '@nestjs/*',
  'typeorm',
  'pg',
  'kafkajs',
  'ioredis',
  'fastify',
  '@fastify/*',
  'node:fs',
  'node:net',
  'node:http',
  'node:child_process',
];

/** Files that never run in a production process: they may use the devnet and the test harness. */
const TEST_CODE = [
  '**/*.spec.ts',
  '**/*.int-spec.ts',
  '**/*.e2e-spec.ts',
  'apps/*/test/**',
  'libs/*/test/**',
  'tools/**',
  'bench/**',
];

/**
 * The boundaries rule. Production code may not reach type:devnet or type:testing (except the devnet
 * and the harness themselves); with `testCode` the same constraints allow both tags everywhere.
 */
function moduleBoundaries({ testCode }) {
  const dev = (tags) => (testCode ? [...tags, 'type:devnet', 'type:testing'] : tags);
  return [
    'error',
    {
      // Libraries are compiled together by tools/build (swc), none is built on its own.
      enforceBuildableLibDependency: false,
      allow: [],
      // Lazy loading is a bundle-splitting concern of browser apps; our Node services and their
      // tests may both `import()` and statically import the same library.
      checkDynamicDependenciesExceptions: ['@swapgw/*'],
      depConstraints: [
        {
          sourceTag: 'type:app',
          onlyDependOnLibsWithTags: dev(['type:feature', 'type:data-access', 'type:contracts', 'type:util']),
        },
        {
          sourceTag: 'type:feature',
          onlyDependOnLibsWithTags: dev(['type:feature', 'type:data-access', 'type:contracts', 'type:util']),
        },
        {
          sourceTag: 'type:data-access',
          onlyDependOnLibsWithTags: dev(['type:data-access', 'type:contracts', 'type:util']),
        },
        {
          sourceTag: 'type:contracts',
          onlyDependOnLibsWithTags: ['type:contracts'],
          bannedExternalImports: IO_AND_FRAMEWORK_PACKAGES,
        },
        { sourceTag: 'type:util', onlyDependOnLibsWithTags: dev(['type:util', 'type:contracts']) },
        // The devnet (and its CLI) builds on the production libraries; the harness on everything.
        {
          sourceTag: 'type:devnet',
          onlyDependOnLibsWithTags: dev(['type:devnet', 'type:data-access', 'type:contracts', 'type:util']),
        },
        {
          sourceTag: 'type:testing',
          onlyDependOnLibsWithTags: [
            'type:testing',
            'type:devnet',
            'type:feature',
            'type:data-access',
            'type:contracts',
            'type:util',
          ],
        },
        // A service reaches only its own scope and the shared libraries: no app imports another.
        ...SERVICE_SCOPES.map((scope) => ({
          sourceTag: `scope:${scope}`,
          onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'],
        })),
        { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
      ],
    },
  ];
}

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', 'dist/**', 'coverage/**', '.cache/**', '.run/**', 'tmp/**', '.nx/**', 'bench/results/**'],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  ...nx.configs['flat/javascript'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/await-thenable': 'error',
      // Config classes annotate `PORT: number = 3000` on purpose: decorator metadata needs the type.
      '@typescript-eslint/no-inferrable-types': ['error', { ignoreParameters: true, ignoreProperties: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: false }) },
  },
  {
    files: TEST_CODE,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries({ testCode: true }) },
  },
  {
    // Tests read JSON bodies and build typed fakes: `any` and non-null assertions are fair there.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Plain Node scripts (tools, config files) are CommonJS or ESM run by node directly.
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
