import fs from 'node:fs';
import path from 'node:path';
import { licenceAllowed, licenceProblems, productionPackages, readLicencePolicy } from './licences';

// Every production dependency's licence is one we may ship (the check CI runs on package-lock.json).
const root = path.resolve(__dirname, '..', '..');
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const policy = readLicencePolicy(root);

describe('production dependency licences', () => {
  it('are all allowed, reviewed exceptions or read from the package files', () => {
    const packages = productionPackages(lock);
    expect(packages.length).toBeGreaterThan(100);
    expect(licenceProblems(packages, policy)).toEqual([]);
  });

  it('leave no policy entry that matches nothing (an exception or undeclared licence gone stale)', () => {
    const packages = productionPackages(lock);
    for (const exception of policy.exceptions)
      expect(packages.some((p) => p.name === exception.package && p.licence === exception.licence)).toBe(
        true,
      );
    for (const undeclared of policy.undeclared)
      expect(
        packages.some((p) => `${p.name}@${p.version}` === undeclared.package && p.licence === null),
      ).toBe(true);
  });

  it('ships no GPL token list, and the project itself is licensed', () => {
    expect(productionPackages(lock).map((p) => p.name)).not.toContain('@uniswap/default-token-list');
    expect(lock.packages[''].license).toBe('Apache-2.0');
    expect(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
  });
});

describe('the licence check', () => {
  const allowed = new Set(['MIT', 'Apache-2.0']);

  it('reads SPDX expressions: OR takes either side, AND needs both', () => {
    expect(licenceAllowed('MIT', allowed)).toBe(true);
    expect(licenceAllowed('(MIT OR GPL-3.0-only)', allowed)).toBe(true);
    expect(licenceAllowed('Apache-2.0 AND MIT', allowed)).toBe(true);
    expect(licenceAllowed('Apache-2.0 AND GPL-2.0-only', allowed)).toBe(false);
    expect(licenceAllowed('(GPL-3.0-or-later)', allowed)).toBe(false);
    expect(() => licenceAllowed('MIT AND', allowed)).toThrow();
  });

  it('refuses a GPL package, one with no licence, and an exception for another licence', () => {
    const policy = {
      allowed: ['MIT'],
      exceptions: [{ package: 'lgpl-lib', licence: 'LGPL-3.0-only', reason: 'reviewed' }],
      undeclared: [{ package: 'old@1.0.0', licence: 'MIT', reason: 'LICENSE file' }],
    };
    expect(
      licenceProblems(
        [
          { name: 'fine', version: '1.0.0', licence: 'MIT' },
          { name: 'old', version: '1.0.0', licence: null },
          { name: 'lgpl-lib', version: '2.0.0', licence: 'LGPL-3.0-only' },
          { name: 'token-list', version: '1.0.0', licence: 'GPL-3.0-or-later' },
          { name: 'old', version: '2.0.0', licence: null },
          { name: 'lgpl-lib', version: '3.0.0', licence: 'GPL-3.0-only' },
        ],
        policy,
      ),
    ).toEqual([
      'token-list@1.0.0 is GPL-3.0-or-later: not allowed (tools/deps/licence-policy.json)',
      'old@2.0.0 declares no licence: read its files, then list it under "undeclared"',
      'lgpl-lib@3.0.0 is GPL-3.0-only: not allowed (tools/deps/licence-policy.json)',
    ]);
  });

  it('counts only what a production install gets', () => {
    expect(
      productionPackages({
        packages: {
          '': { license: 'Apache-2.0' },
          'node_modules/a': { version: '1.0.0', license: 'MIT' },
          'node_modules/b': { version: '1.0.0', license: 'GPL-3.0', dev: true },
          'node_modules/c': { version: '1.0.0', license: 'GPL-3.0', devOptional: true },
          'node_modules/a/node_modules/@scope/d': { version: '2.0.0', license: 'ISC' },
        },
      }),
    ).toEqual([
      { name: '@scope/d', version: '2.0.0', licence: 'ISC' },
      { name: 'a', version: '1.0.0', licence: 'MIT' },
    ]);
  });
});
