import { AllowlistEntry, auditVerdict, readAllowlist } from './production-audit';

const advisory = (name: string, id: string, severity: string) => ({
  source: 1100000,
  name,
  dependency: name,
  title: `${name} is vulnerable`,
  url: `https://github.com/advisories/${id}`,
  severity,
  range: '<=9.9.9',
});

// The shape of `npm audit --json` (auditReportVersion 2): a package that is only vulnerable through
// another one lists that package's name in `via`.
const report = {
  auditReportVersion: 2,
  vulnerabilities: {
    'bigint-buffer': {
      name: 'bigint-buffer',
      severity: 'high',
      via: [advisory('bigint-buffer', 'GHSA-3gc7-fjrx-p6mg', 'high')],
    },
    '@solana/buffer-layout-utils': {
      name: '@solana/buffer-layout-utils',
      severity: 'high',
      via: ['bigint-buffer'],
    },
    'some-parser': {
      name: 'some-parser',
      severity: 'critical',
      via: [
        advisory('some-parser', 'GHSA-aaaa-bbbb-cccc', 'critical'),
        advisory('some-parser', 'GHSA-dddd-eeee-ffff', 'moderate'),
      ],
    },
  },
  metadata: { vulnerabilities: { high: 2, critical: 1, total: 3 } },
};
const accepted: AllowlistEntry = {
  id: 'GHSA-3gc7-fjrx-p6mg',
  package: 'bigint-buffer',
  reason: 'native addon never built',
};

describe('auditVerdict', () => {
  it('fails on a high or critical advisory that is not in the allowlist, once per advisory', () => {
    const verdict = auditVerdict(report, [accepted]);
    expect(verdict).toMatchObject({
      kind: 'checked',
      fresh: [{ id: 'GHSA-aaaa-bbbb-cccc', package: 'some-parser', severity: 'critical' }],
      accepted: [{ id: 'GHSA-3gc7-fjrx-p6mg', package: 'bigint-buffer' }],
      stale: [],
    });
  });

  it('passes over moderate and low advisories', () => {
    const verdict = auditVerdict(report, [
      accepted,
      { id: 'GHSA-aaaa-bbbb-cccc', package: 'some-parser', reason: 'r' },
    ]);
    expect(verdict).toMatchObject({ kind: 'checked', fresh: [] });
  });

  it('names allowlist entries the audit no longer reports', () => {
    const verdict = auditVerdict({ auditReportVersion: 2, vulnerabilities: {} }, [accepted]);
    expect(verdict).toEqual({ kind: 'checked', fresh: [], accepted: [], stale: [accepted] });
  });

  it('accepts an advisory only for the package it was reviewed for', () => {
    const verdict = auditVerdict(report, [{ ...accepted, package: 'another-package' }]);
    expect(verdict.kind === 'checked' && verdict.fresh.map((a) => a.id)).toContain('GHSA-3gc7-fjrx-p6mg');
  });

  it('is unavailable, not failed, when npm could not reach the audit endpoint', () => {
    const npmError = {
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
      statusCode: 405,
      error: { summary: '', detail: '' },
    };
    expect(auditVerdict(npmError, [accepted])).toEqual({ kind: 'unavailable', reason: npmError.message });
    expect(auditVerdict(null, [])).toMatchObject({ kind: 'unavailable' });
  });
});

describe('tools/deps/audit-allowlist.json', () => {
  it('gives every accepted advisory a GHSA id, a package and a reason', () => {
    const entries = readAllowlist();
    for (const e of entries) {
      expect(e.id).toMatch(/^GHSA-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
      expect(e.reason.length).toBeGreaterThan(40);
    }
  });
});
