import { execFileSync } from 'node:child_process';
import path from 'node:path';

// The lint rules the team relies on, checked against eslint.config.mjs itself. Integration: it
// computes the Nx project graph (the boundaries rule silently skips itself without one) and runs
// ESLint in a separate node process (jest's module sandbox cannot load the ESM config).
const root = path.resolve(__dirname, '..', '..');

interface Probe {
  file: string;
  code: string;
}
interface ProbeResult {
  boundaryErrors: string[];
}

// Probes are not files of the TypeScript program: they are linted without type information (the
// type-aware rules are switched off for them) and those rules are checked through the config.
const LINT_SCRIPT = `
import { ESLint } from 'eslint';
const probes = JSON.parse(process.env.LINT_PROBES);
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [{
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: null, projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': 'off',
      '@typescript-eslint/await-thenable': 'off',
    },
  }],
});
const results = [];
for (const probe of probes) {
  const [result] = await eslint.lintText(probe.code, { filePath: probe.file });
  results.push({
    boundaryErrors: result.messages
      .filter((m) => m.ruleId === '@nx/enforce-module-boundaries' && m.severity === 2)
      .map((m) => m.message),
  });
}
const own = await new ESLint({ cwd: process.cwd() }).calculateConfigForFile('libs/contracts/src/index.ts');
const severity = (rule) => (Array.isArray(own.rules[rule]) ? own.rules[rule][0] : own.rules[rule]);
process.stdout.write(JSON.stringify({
  results,
  severities: Object.fromEntries(
    ['@typescript-eslint/no-floating-promises', '@typescript-eslint/switch-exhaustiveness-check', '@nx/enforce-module-boundaries']
      .map((rule) => [rule, severity(rule)]),
  ),
}));
`;

function lint(probes: Probe[]): { results: ProbeResult[]; severities: Record<string, number> } {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', LINT_SCRIPT], {
    cwd: root,
    env: {
      ...process.env,
      LINT_PROBES: JSON.stringify(probes.map((p) => ({ ...p, file: path.join(root, p.file) }))),
    },
    encoding: 'utf8',
    maxBuffer: 10 * 1024 * 1024,
  });
  return JSON.parse(stdout);
}

const DEV_IMPORTS =
  "import { startDevnet } from '@swapgw/devnet';\nimport { testEnv } from '@swapgw/testing';\nexport const probe = [startDevnet, testEnv];\n";

describe('eslint.config.mjs', () => {
  const probes: Probe[] = [
    {
      file: 'libs/contracts/src/boundary-probe.ts',
      code: "import { Kafka } from 'kafkajs';\nimport { Injectable } from '@nestjs/common';\nimport { loadConfig } from '@swapgw/runtime';\nexport const probe = [Kafka, Injectable, loadConfig];\n",
    },
    {
      file: 'apps/gateway/src/boundary-probe.ts',
      code: "import { QuoteServiceConfig } from '../../quote-service/src/config/quote-service.config';\nexport const probe = QuoteServiceConfig;\n",
    },
    {
      file: 'libs/runtime/src/boundary-probe.ts',
      code: "import { ChainRegistry } from '@swapgw/chains';\nexport const probe = ChainRegistry;\n",
    },
    {
      file: 'apps/gateway/src/boundary-probe.ts',
      code: "import { prepareDatabase } from '@swapgw/persistence';\nimport { Topics } from '@swapgw/contracts';\nimport { loadConfig } from '@swapgw/runtime';\nexport const probe = [prepareDatabase, Topics, loadConfig];\n",
    },
    // libs/devnet and libs/testing load devDependencies: production code must not import them.
    { file: 'apps/signer-surface/src/signing/boundary-probe.ts', code: DEV_IMPORTS },
    { file: 'libs/persistence/src/boundary-probe.ts', code: DEV_IMPORTS },
    // Test code may: specs next to the code, test/ folders of apps.
    { file: 'apps/signer-surface/src/signing/boundary-probe.spec.ts', code: DEV_IMPORTS },
    { file: 'apps/quote-service/src/quote/boundary-probe.int-spec.ts', code: DEV_IMPORTS },
    { file: 'apps/gateway/test/support/boundary-probe.ts', code: DEV_IMPORTS },
    // The devnet builds on production libraries, and the harness on the devnet.
    {
      file: 'libs/devnet/src/boundary-probe.ts',
      code: "import { readDevnetManifest } from '@swapgw/chains';\nexport const probe = readDevnetManifest;\n",
    },
    {
      file: 'libs/testing/src/boundary-probe.ts',
      code: "import { startDevnet } from '@swapgw/devnet';\nexport const probe = startDevnet;\n",
    },
  ];
  let outcome: ReturnType<typeof lint>;

  beforeAll(() => {
    execFileSync(path.join(root, 'node_modules', '.bin', 'nx'), ['show', 'projects'], {
      cwd: root,
      stdio: 'ignore',
    });
    outcome = lint(probes);
  }, 120_000);

  it('keeps contracts free of I/O and framework packages and of other libraries', () => {
    expect(outcome.results[0].boundaryErrors).toEqual([
      expect.stringContaining('not allowed to import "kafkajs"'),
      expect.stringContaining('not allowed to import "@nestjs/common"'),
      expect.stringContaining('can only depend on libs tagged with "type:contracts"'),
    ]);
  });

  it('forbids an app to import another app', () => {
    expect(outcome.results[1].boundaryErrors.length).toBeGreaterThan(0);
  });

  it('forbids a util library to depend on a data-access library', () => {
    expect(outcome.results[2].boundaryErrors).toEqual([
      expect.stringContaining('"type:util" can only depend on libs tagged with'),
    ]);
  });

  it('lets an app use data-access, contracts and util libraries', () => {
    expect(outcome.results[3].boundaryErrors).toEqual([]);
  });

  it('forbids production code (apps, libraries) to import libs/devnet or libs/testing', () => {
    for (const result of outcome.results.slice(4, 6)) {
      expect(result.boundaryErrors).toEqual([
        expect.stringContaining('can only depend on libs tagged with'),
        expect.stringContaining('can only depend on libs tagged with'),
      ]);
    }
  });

  it('lets specs and test/ folders import libs/devnet and libs/testing', () => {
    for (const result of outcome.results.slice(6, 9)) expect(result.boundaryErrors).toEqual([]);
  });

  it('lets the devnet use production libraries and the harness use the devnet', () => {
    expect(outcome.results[9].boundaryErrors).toEqual([]);
    expect(outcome.results[10].boundaryErrors).toEqual([]);
  });

  it('makes floating promises, non-exhaustive switches and boundary violations errors', () => {
    expect(outcome.severities).toEqual({
      '@typescript-eslint/no-floating-promises': 2,
      '@typescript-eslint/switch-exhaustiveness-check': 2,
      '@nx/enforce-module-boundaries': 2,
    });
  });
});
