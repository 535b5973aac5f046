// Builds the swc options used by both the build (tools/build/build.mjs) and jest (@swc/jest):
// the repo's .swcrc plus the tsconfig path aliases, which swc rewrites into relative requires.
// swc needs an absolute baseUrl, so it is computed here rather than committed.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function swcOptions() {
  const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
  const tsconfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  delete swcrc.$schema;
  swcrc.jsc.baseUrl = root;
  swcrc.jsc.paths = tsconfig.compilerOptions.paths;
  return swcrc;
}

/** jest moduleNameMapper entries for the same aliases. */
function jestModuleNameMapper() {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));
  const mapper = {};
  for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
    mapper[`^${alias.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`] = path.join(root, target);
  }
  return mapper;
}

module.exports = { root, swcOptions, jestModuleNameMapper };
