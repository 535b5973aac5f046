import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Node warns about a negative timer once per process, so each case runs in a process of its own,
// loading the module as Node 24 runs TypeScript (type stripping). The warning exists since Node 23.
const warns = Number(process.versions.node.split('.')[0]) >= 23;
const moduleFile = path.join(__dirname, 'kafkajs-negative-timeout.ts');

function warningsOf(armTimer: string): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'negative-timer-'));
  try {
    // A module at a kafkajs path that arms a negative timer, as kafkajs's request queue does.
    const kafkajsTimer = path.join(dir, 'node_modules', 'kafkajs', 'src', 'timer.js');
    fs.mkdirSync(path.dirname(kafkajsTimer), { recursive: true });
    fs.writeFileSync(kafkajsTimer, 'module.exports = () => clearTimeout(setTimeout(() => undefined, -5));\n');
    const script = `
      require(${JSON.stringify(moduleFile)}).dropKafkajsNegativeTimeoutWarnings();
      const seen = [];
      process.on('warning', (w) => seen.push(w.name));
      ${armTimer.replace('KAFKAJS_TIMER', JSON.stringify(kafkajsTimer))}
      process.emitWarning('something else', 'DeprecationWarning');
      setTimeout(() => process.stdout.write(JSON.stringify(seen)), 100);
    `;
    const child = spawnSync(process.execPath, ['--no-warnings', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    return JSON.parse(child.stdout) as string[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

(warns ? describe : describe.skip)('dropKafkajsNegativeTimeoutWarnings', () => {
  it('drops the TimeoutNegativeWarning of a timer armed inside kafkajs, and passes other warnings on', () => {
    expect(warningsOf('require(KAFKAJS_TIMER)();')).toEqual(['DeprecationWarning']);
  });

  it('still warns about a negative timer of ours', () => {
    expect(warningsOf('clearTimeout(setTimeout(() => undefined, -7));').sort()).toEqual([
      'DeprecationWarning',
      'TimeoutNegativeWarning',
    ]);
  });
});
