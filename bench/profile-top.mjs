#!/usr/bin/env node
// Summarises V8 CPU profiles (`npm run bench -- --cpu-prof DIR` writes one per app):
//   node bench/profile-top.mjs DIR [--top 25] [--stalls 3]
// For each profile: total sampled time, then the functions with the most self time and the
// packages (node_modules/<name>, or our own apps/libs) that time falls in. With --stalls N, also
// the N longest stretches without an idle sample (the event loop never waited: a stall of the
// loop, or a run of back-to-back work), each with when it began and its functions by self time.
import fs from 'node:fs';
import path from 'node:path';

const [dir, ...rest] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/profile-top.mjs DIR [--top N]');
  process.exit(2);
}
const topIndex = rest.indexOf('--top');
const top = topIndex >= 0 ? Number(rest[topIndex + 1]) : 25;
const stallsIndex = rest.indexOf('--stalls');
const stalls = stallsIndex >= 0 ? Number(rest[stallsIndex + 1]) : 0;
/** Functions listed per stall. */
const STALL_FUNCTIONS = 8;

/** node_modules/<scope/name>, our apps/<x> or libs/<x>, node: internals, or the runtime. */
function packageOf(url) {
  if (!url) return '(runtime)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const ours = /\/(apps|libs)\/([^/]+)\//.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return 'node:*';
  return path.basename(url);
}

for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .sort()) {
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
  }
  let total = 0;
  let idle = 0;
  const byFunction = new Map();
  const byPackage = new Map();
  for (const [id, micros] of self) {
    const node = byId.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    total += micros;
    if (functionName === '(idle)' || functionName === '(program)') {
      if (functionName === '(idle)') idle += micros;
      continue;
    }
    const fn = `${functionName || '(anonymous)'} ${packageOf(url)}:${lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
    const pkg = functionName === '(garbage collector)' ? '(gc)' : packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
  }
  const busy = total - idle;
  const ms = (us) => `${(us / 1000).toFixed(0)} ms`;
  const pct = (us) => `${((100 * us) / Math.max(1, busy)).toFixed(1)}%`;
  console.log(`\n== ${file}: ${ms(busy)} busy of ${ms(total)} sampled`);
  console.log('-- packages');
  for (const [name, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`${pct(us).padStart(6)}  ${name}`);
  console.log('-- functions (self time)');
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(us).padStart(6)}  ${name}`);
  if (stalls > 0) printStalls(profile, byId, ms);
}

/** The longest stretches of samples with no (idle) among them, and what ran in each. */
function printStalls(profile, byId, ms) {
  const nameOf = (id) => {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    return `${functionName || '(anonymous)'} ${packageOf(url)}:${lineNumber + 1}`;
  };
  const stretches = [];
  let current;
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const micros = profile.timeDeltas[i] ?? 0;
    at += micros;
    const idle = byId.get(profile.samples[i]).callFrame.functionName === '(idle)';
    if (idle) {
      if (current) stretches.push(current);
      current = undefined;
      continue;
    }
    current ??= { startUs: at - micros, us: 0, self: new Map() };
    current.us += micros;
    const name = nameOf(profile.samples[i]);
    current.self.set(name, (current.self.get(name) ?? 0) + micros);
  }
  if (current) stretches.push(current);
  console.log(`-- the ${stalls} longest stretches without an idle sample`);
  for (const stretch of stretches.sort((a, b) => b.us - a.us).slice(0, stalls)) {
    console.log(`   ${ms(stretch.us)} from ${(stretch.startUs / 1e6).toFixed(1)} s after the profile began:`);
    for (const [name, us] of [...stretch.self].sort((a, b) => b[1] - a[1]).slice(0, STALL_FUNCTIONS))
      console.log(`${((100 * us) / stretch.us).toFixed(1).padStart(9)}%  ${name}`);
  }
}
