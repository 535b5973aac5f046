import fs from 'node:fs';
import path from 'node:path';

// tools/stack/node-runtime.mjs is plain ESM run by Node before any build: its constants are read
// from the source text here rather than imported.
const root = path.resolve(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const constant = (name: string) =>
  new RegExp(`export const ${name} = '?([^';]+)'?;`).exec(read('tools/stack/node-runtime.mjs'))?.[1];

describe('the project Node version', () => {
  const version = constant('NODE_VERSION');
  const pkg = JSON.parse(read('package.json'));

  it('is the same in node-runtime.mjs, .nvmrc and the Dockerfile', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(read('.nvmrc').trim()).toBe(version);
    expect(read('Dockerfile')).toContain(`ARG NODE_IMAGE=node:${version}-`);
  });

  it('gives @types/node its major and engines.node the oldest major run without fetching', () => {
    expect(pkg.devDependencies['@types/node'].split('.')[0]).toBe(version?.split('.')[0]);
    expect(pkg.engines.node).toBe(`>=${constant('MIN_NODE_MAJOR')}`);
  });
});
