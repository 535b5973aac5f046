// `npm audit` of the production dependencies (what `npm ci --omit=dev` installs, as the Dockerfile),
// high and critical only, against the accepted advisories of tools/deps/audit-allowlist.json: the
// audit step of `npm test` fails on an advisory nobody has looked at yet, not on accepted ones.
// When the registry's audit endpoint cannot be used (offline, a mirror without it) the step warns
// and passes: an unreachable endpoint says nothing about the dependencies.
// Run alone: `node dist/tools/deps/production-audit.js` after a build.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// tools/deps → the repository; dist/tools/deps → dist, one more level up.
const twoUp = path.resolve(__dirname, '..', '..');
const root = path.basename(twoUp) === 'dist' ? path.dirname(twoUp) : twoUp;
export const AUDIT_ALLOWLIST = path.join(root, 'tools', 'deps', 'audit-allowlist.json');
const GATING = new Set(['high', 'critical']);

export interface AllowlistEntry {
  /** GHSA id of the advisory (the `url` of npm audit's report ends with it). */
  id: string;
  /** The vulnerable package, as npm audit names it. */
  package: string;
  /** Why it is accepted: reachability, what was checked, what would remove it. */
  reason: string;
}

export interface Advisory {
  id: string;
  package: string;
  severity: string;
  title: string;
  url: string;
}

export type AuditVerdict =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'checked'; fresh: Advisory[]; accepted: Advisory[]; stale: AllowlistEntry[] };

/** The advisory id: the GHSA of its URL, else npm's numeric source id. */
function advisoryId(via: { url?: unknown; source?: unknown }): string {
  const ghsa =
    typeof via.url === 'string' ? /GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}/i.exec(via.url)?.[0] : undefined;
  return ghsa ?? String(via.source);
}

/**
 * Reads an `npm audit --json` report (auditReportVersion 2): every high or critical advisory, each
 * once, split into accepted (listed) and fresh ones; allowlist entries no longer reported are stale.
 * Anything that is not a report (npm's error object when the endpoint failed) is `unavailable`.
 */
export function auditVerdict(report: unknown, allowlist: AllowlistEntry[]): AuditVerdict {
  const vulnerabilities = (report as { vulnerabilities?: unknown } | null)?.vulnerabilities;
  if (typeof vulnerabilities !== 'object' || vulnerabilities === null) {
    const error = report as { message?: unknown; error?: { summary?: unknown } } | null;
    const reason = String(error?.message ?? error?.error?.summary ?? 'npm audit gave no report');
    return { kind: 'unavailable', reason: reason.split('\n')[0] };
  }
  const advisories = new Map<string, Advisory>();
  for (const entry of Object.values(vulnerabilities as Record<string, { via?: unknown[] }>)) {
    for (const via of entry.via ?? []) {
      // A string names the dependency the problem comes through; its own entry carries the advisory.
      if (typeof via !== 'object' || via === null) continue;
      const v = via as { severity?: string; name?: string; title?: string; url?: string; source?: unknown };
      if (!v.severity || !GATING.has(v.severity)) continue;
      const id = advisoryId(v);
      advisories.set(`${id} ${v.name}`, {
        id,
        package: String(v.name),
        severity: v.severity,
        title: String(v.title ?? ''),
        url: String(v.url ?? ''),
      });
    }
  }
  const listed = (a: Advisory) =>
    allowlist.some((e) => e.id.toLowerCase() === a.id.toLowerCase() && e.package === a.package);
  const all = [...advisories.values()];
  return {
    kind: 'checked',
    fresh: all.filter((a) => !listed(a)),
    accepted: all.filter(listed),
    stale: allowlist.filter(
      (e) => !all.some((a) => a.id.toLowerCase() === e.id.toLowerCase() && a.package === e.package),
    ),
  };
}

export function readAllowlist(file = AUDIT_ALLOWLIST): AllowlistEntry[] {
  const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as { advisories: AllowlistEntry[] };
  for (const e of entries.advisories) {
    if (!e.id || !e.package || !e.reason)
      throw new Error(`${file}: every advisory needs id, package and reason`);
  }
  return entries.advisories;
}

function npmAuditJson(cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // No --audit-level: the exit code mixes "found something" with "could not ask"; the JSON tells them apart.
    const child = spawn(npm, ['audit', '--omit=dev', '--json'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', () => resolve(''));
    child.once('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** Runs the audit and reports in lines; ok is false only for fresh high or critical advisories. */
export async function runProductionAudit({
  cwd = root,
  log = (scope: string, message: string) => console.log(`[${scope}] ${message}`),
  timeoutMs = 120_000,
}: { cwd?: string; log?: (scope: string, message: string) => void; timeoutMs?: number } = {}): Promise<{
  ok: boolean;
  detail: string;
}> {
  const allowlist = readAllowlist();
  const output = await npmAuditJson(cwd, timeoutMs);
  let report: unknown;
  try {
    report = JSON.parse(output);
  } catch {
    report = {
      message: output.trim()
        ? 'npm audit printed no JSON'
        : 'npm audit printed nothing (timed out or not run)',
    };
  }
  const verdict = auditVerdict(report, allowlist);
  if (verdict.kind === 'unavailable') {
    log(
      'audit',
      `WARNING: NOT RUN: the registry's audit endpoint did not answer (${verdict.reason}); the production dependencies are unchecked for advisories on this machine`,
    );
    return { ok: true, detail: `NOT RUN, the registry's audit endpoint did not answer: ${verdict.reason}` };
  }
  for (const a of verdict.accepted)
    log('audit', `accepted ${a.severity} ${a.id} in ${a.package} (tools/deps/audit-allowlist.json)`);
  for (const e of verdict.stale)
    log('audit', `no longer reported, remove it from the allowlist: ${e.id} in ${e.package}`);
  for (const a of verdict.fresh)
    log('audit', `NEW ${a.severity} ${a.id} in ${a.package}: ${a.title} ${a.url}`);
  const detail = `${verdict.fresh.length} new, ${verdict.accepted.length} accepted high/critical advisories`;
  return { ok: verdict.fresh.length === 0, detail };
}

if (require.main === module) {
  runProductionAudit().then(
    ({ ok, detail }) => {
      console.log(`[audit] ${detail}`);
      process.exitCode = ok ? 0 : 1;
    },
    (error: Error) => {
      console.error(`[audit] ${error.message}`);
      process.exitCode = 1;
    },
  );
}
