import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { sourceFilesUnder } from './import-graph';

// One way to get a collaborator in the apps (issue 45): Nest injection. No constructor default
// (`clock: Clock = new SystemClock()`), no repository made by hand (a module's `useFactory` and a
// CLI outside Nest may build one), and time read for a decision through the one injected Clock, so
// no default parameter reads the machine's clock (`nowMs = Date.now()`, `now = Date.now`) and no
// function-typed clock stands beside it (`now: () => number = Date.now`, `options.clock ?? Date.now`).
// The libraries the apps' decisions run through (messaging, chains, runtime) take the Clock too:
// the clock rules hold there as well.
const root = path.resolve(__dirname, '..', '..');

/** Libraries whose time-based decisions take the caller's Clock (issue 45, point 4). */
const CLOCK_RULED_LIBS = ['messaging', 'chains', 'runtime'];

/**
 * Default parameters that read the machine's clock and stay, each with why: the webhook receiver's
 * check (what an integrator runs, the SDK's verifyWebhook; the gateway only signs, from its Clock).
 */
const ALLOWED_CLOCK_DEFAULTS: ReadonlySet<string> = new Set([
  'apps/gateway/src/webhooks/webhook-signature.ts:verifySignature',
]);

/** Built-in values a constructor may default to (an empty map of settings is data, not a collaborator). */
const VALUES = /^(Map|Set|Array|Date)$/;

/** Files that may build repositories themselves: Nest modules (factories) and CLIs outside Nest. */
const MAY_BUILD_REPOSITORIES = /(\.module\.ts$|\/src\/cli\/)/;

function functionNameOf(node: ts.Node): string {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isConstructorDeclaration(at)) return 'constructor';
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at)) && at.name) return at.name.getText();
    if (ts.isVariableDeclaration(at)) return at.name.getText();
  }
  return '?';
}

/** `Date.now` handed around as a value (a function-typed clock), not called where the time is read. */
function isDateNowAsValue(node: ts.Node): boolean {
  return (
    ts.isPropertyAccessExpression(node) &&
    node.getText() === 'Date.now' &&
    !(ts.isCallExpression(node.parent) && node.parent.expression === node)
  );
}

/**
 * What `text` (the file `file`, relative to the repository) breaks, as "file:line: why": with
 * `clockOnly`, only the clock rules (what the libraries are held to).
 */
export function injectionViolations(
  file: string,
  text: string,
  options: { clockOnly?: boolean } = {},
): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const violations: string[] = [];
  const report = (node: ts.Node, why: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    violations.push(`${file}:${line + 1}: ${why}`);
  };
  const visit = (node: ts.Node): void => {
    if (isDateNowAsValue(node) && !ts.isParameter(node.parent)) {
      report(node, 'Date.now as a clock function: take the Clock');
    }
    if (ts.isParameter(node) && node.initializer) {
      const initializer = node.initializer.getText();
      if (
        !options.clockOnly &&
        ts.isConstructorDeclaration(node.parent) &&
        ts.isNewExpression(node.initializer) &&
        !VALUES.test(node.initializer.expression.getText())
      ) {
        report(node, `constructor default ${node.name.getText()} = ${initializer}: inject it`);
      } else if (
        /\bDate\.now\b|\bnew SystemClock\b/.test(initializer) &&
        !ALLOWED_CLOCK_DEFAULTS.has(`${file}:${functionNameOf(node)}`)
      ) {
        report(node, `default parameter ${node.name.getText()} = ${initializer}: read the injected Clock`);
      }
    }
    if (
      !options.clockOnly &&
      ts.isNewExpression(node) &&
      /Repository$/.test(node.expression.getText()) &&
      !MAY_BUILD_REPOSITORIES.test(file)
    ) {
      report(node, `${node.expression.getText()} built by hand: make it a provider and inject it`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return violations;
}

const relative = (full: string): string => path.relative(root, full).split(path.sep).join('/');

const appSources = (): string[] =>
  readdirSync(path.join(root, 'apps')).flatMap((app) =>
    sourceFilesUnder(path.join(root, 'apps', app, 'src')).map(relative),
  );

const clockRuledLibSources = (): string[] =>
  CLOCK_RULED_LIBS.flatMap((lib) => sourceFilesUnder(path.join(root, 'libs', lib, 'src')).map(relative));

describe('one way to inject in the apps', () => {
  it('no app source file has a constructor default, a clock-reading default parameter or a hand-made repository', () => {
    const files = appSources();
    expect(files.length).toBeGreaterThan(100);
    expect(
      files.flatMap((file) => injectionViolations(file, readFileSync(path.join(root, file), 'utf8'))),
    ).toEqual([]);
  });

  it('no source file of the libraries the decisions run through reads the machine clock in a default or hands Date.now around', () => {
    const files = clockRuledLibSources();
    expect(files.length).toBeGreaterThan(100);
    expect(
      files.flatMap((file) =>
        injectionViolations(file, readFileSync(path.join(root, file), 'utf8'), { clockOnly: true }),
      ),
    ).toEqual([]);
  });

  it('finds each kind of violation', () => {
    const file = 'apps/x/src/x.service.ts';
    const text = [
      'class X {',
      '  constructor(private readonly clock: Clock = new SystemClock(), dataSource: DataSource) {',
      '    this.rows = new RowsRepository(dataSource);',
      '  }',
      '  purge(nowMs = Date.now()) {}',
      '  sign(nowSeconds = Math.floor(Date.now() / 1000)) {}',
      '  sweep(nowMs = this.clock.nowMs()) {}',
      '}',
      'const reads = (now: () => number = Date.now) => now();',
      'const clockOf = (options: { clock?: () => number }) => options.clock ?? Date.now;',
    ].join('\n');
    expect(injectionViolations(file, text)).toEqual([
      `${file}:2: constructor default clock = new SystemClock(): inject it`,
      `${file}:3: RowsRepository built by hand: make it a provider and inject it`,
      `${file}:5: default parameter nowMs = Date.now(): read the injected Clock`,
      `${file}:6: default parameter nowSeconds = Math.floor(Date.now() / 1000): read the injected Clock`,
      `${file}:9: default parameter now = Date.now: read the injected Clock`,
      `${file}:10: Date.now as a clock function: take the Clock`,
    ]);
    expect(
      injectionViolations('libs/x/src/x.ts', text, { clockOnly: true }).map((v) => v.split(': ')[1]),
    ).toEqual([
      'default parameter clock = new SystemClock()',
      'default parameter nowMs = Date.now()',
      'default parameter nowSeconds = Math.floor(Date.now() / 1000)',
      'default parameter now = Date.now',
      'Date.now as a clock function',
    ]);
    expect(injectionViolations('apps/x/src/x.module.ts', 'useFactory: (d) => new RowsRepository(d)')).toEqual(
      [],
    );
  });
});
