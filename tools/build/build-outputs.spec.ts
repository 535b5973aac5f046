import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const { pruneStaleOutputs } = require('./build-outputs.js') as {
  pruneStaleOutputs(options: {
    root: string;
    outDir: string;
    dirs: string[];
    exclude: string[];
    assets: Set<string>;
  }): string[];
};

describe('pruneStaleOutputs', () => {
  let root: string;
  let outDir: string;
  const write = (file: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
  };
  const filesUnder = (dir: string): string[] =>
    fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
      .sort();

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-outputs-'));
    outDir = path.join(root, 'dist');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('removes the output of a module that became a folder, so require("./x") finds x/index.js', () => {
    for (const source of ['libs/a/src/index.ts', 'libs/a/src/intents/index.ts', 'libs/a/src/data.json'])
      write(path.join(root, source));
    for (const output of [
      'libs/a/src/index.js',
      'libs/a/src/index.js.map',
      'libs/a/src/intents/index.js',
      'libs/a/src/intents.js', // compiled from libs/a/src/intents.ts before it moved into intents/
      'libs/a/src/intents.js.map',
      'libs/a/src/data.json',
      'libs/a/src/old.json', // an asset no longer in the sources
      'libs/gone/src/main.js', // a whole lib removed
    ])
      write(path.join(outDir, output));

    const removed = pruneStaleOutputs({
      root,
      outDir,
      dirs: ['libs'],
      exclude: [],
      assets: new Set(['libs/a/src/data.json']),
    });

    expect(removed.sort()).toEqual([
      'libs/a/src/intents.js',
      'libs/a/src/intents.js.map',
      'libs/a/src/old.json',
      'libs/gone/src/main.js',
    ]);
    expect(filesUnder(outDir)).toEqual([
      'libs/a/src/data.json',
      'libs/a/src/index.js',
      'libs/a/src/index.js.map',
      'libs/a/src/intents/index.js',
    ]);
    expect(fs.existsSync(path.join(outDir, 'libs/gone'))).toBe(false);
  });

  it('removes the output of an excluded source and leaves directories outside `dirs` alone', () => {
    write(path.join(root, 'apps/x/src/main.spec.ts'));
    write(path.join(root, 'apps/x/src/main.ts'));
    write(path.join(outDir, 'apps/x/src/main.spec.js'));
    write(path.join(outDir, 'apps/x/src/main.js'));
    write(path.join(outDir, 'other/kept.txt'));

    const removed = pruneStaleOutputs({
      root,
      outDir,
      dirs: ['apps', 'libs'],
      exclude: ['\\.spec\\.ts$'],
      assets: new Set(),
    });

    expect(removed).toEqual(['apps/x/src/main.spec.js']);
    expect(filesUnder(outDir)).toEqual(['apps/x/src/main.js', 'other/kept.txt']);
  });
});
