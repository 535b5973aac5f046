// What a build leaves in its output directory: exactly what the sources compile to. swc writes
// over the previous output but never removes a file whose source is gone (deleted, renamed, or a
// module that became a folder), and Node still loads such a file: `require('./x')` resolves to a
// stale x.js before the new x/index.js. Used by tools/build/build.mjs after each compile.
const fs = require('node:fs');
const path = require('node:path');

/**
 * Removes from outDir/<dir> (for each of `dirs`) every file the build does not produce: a .js or
 * .js.map whose .ts source under `root` is missing or matches one of the `exclude` patterns (the
 * swc exclude list), and anything else that is not one of the copied `assets` (paths relative to
 * root); then the folders left empty. Returns the removed files, relative to outDir.
 */
function pruneStaleOutputs({ root, outDir, dirs, exclude, assets }) {
  const excluded = exclude.map((pattern) => new RegExp(pattern));
  const produced = (rel) => {
    const compiled = rel.match(/^(.*)\.js(\.map)?$/);
    if (!compiled) return assets.has(rel);
    const source = `${compiled[1]}.ts`;
    return fs.existsSync(path.join(root, source)) && !excluded.some((re) => re.test(source));
  };
  const removed = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
        if (fs.readdirSync(full).length === 0) fs.rmdirSync(full);
      } else {
        const rel = path.relative(outDir, full);
        if (!produced(rel)) {
          fs.rmSync(full);
          removed.push(rel);
        }
      }
    }
  };
  for (const dir of dirs) if (fs.existsSync(path.join(outDir, dir))) walk(path.join(outDir, dir));
  return removed;
}

module.exports = { pruneStaleOutputs };
