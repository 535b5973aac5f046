import fs from 'node:fs';
import path from 'node:path';

// The package an integrator installs (libs/sdk/package.json) against the API it is generated from.
const root = path.resolve(__dirname, '..', '..', '..');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

describe('@swapgw/sdk package', () => {
  const pkg = read('libs/sdk/package.json');
  const document = read('apps/gateway/openapi.json') as {
    info: { version: string };
    paths: Record<string, Record<string, { operationId?: string }>>;
  };

  it("is versioned as the API: the OpenAPI document's info.version, semver", () => {
    expect(pkg.name).toBe('@swapgw/sdk');
    expect(pkg.version).toBe(document.info.version);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("carries the repository's licence, types, exports and only optional peers for the wallet libraries", () => {
    expect(pkg.license).toBe('Apache-2.0');
    expect(fs.readFileSync(path.join(root, 'LICENSE'), 'utf8')).toContain('Apache License');
    expect(pkg.types).toBe('./dist/index.d.ts');
    expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(pkg.exports['./solana']).toEqual({ types: './dist/solana.d.ts', default: './dist/solana.js' });
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(['@solana/web3.js', 'ethers', 'viem']);
    for (const name of Object.keys(pkg.peerDependencies))
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
    // Its one dependency is the version the repository builds and tests it with.
    const rootPkg = read('package.json');
    expect(pkg.dependencies).toEqual({ 'openapi-fetch': rootPkg.dependencies['openapi-fetch'] });
    // The peer ranges admit the versions the repository tests with.
    const major = (v: string) => v.replace(/^\D*/, '').split('.')[0];
    for (const name of Object.keys(pkg.peerDependencies)) {
      const tested = rootPkg.dependencies[name] ?? rootPkg.devDependencies[name];
      expect(major(pkg.peerDependencies[name])).toBe(major(tested));
    }
  });

  it('names every operation of the API with a readable, unique operationId (the client method names)', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, operation]) => operation.operationId ?? `(none on ${method})`),
    );
    expect(ids.length).toBeGreaterThanOrEqual(20);
    for (const id of ids)
      expect(id).toMatch(
        /^(get|list|create|build|submit|cancel|replace|delete|redeliver|stream)[A-Z][A-Za-z]+$/,
      );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'getQuote',
        'buildSwap',
        'getSwapSigning',
        'submitSwapSignature',
        'listSwaps',
        'createLimitOrder',
      ]),
    );
  });
});
