// The licences of the production dependencies, read from package-lock.json (npm records each
// package's `license`), against tools/deps/licence-policy.json: allowed SPDX identifiers, reviewed
// exceptions by package, and the licences of packages whose metadata does not declare one.
import fs from 'node:fs';
import path from 'node:path';

export interface LicencePolicy {
  allowed: string[];
  exceptions: { package: string; licence: string; reason: string }[];
  /** `name@version` → the licence found in the package's files. */
  undeclared: { package: string; licence: string; reason: string }[];
}

export interface ProductionPackage {
  name: string;
  version: string;
  /** SPDX expression as declared, or null when the package declares none. */
  licence: string | null;
}

interface LockEntry {
  version?: string;
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
  link?: boolean;
}

/** Every package of the lock a production install (`--omit=dev`) installs, once per name@version. */
export function productionPackages(lock: { packages: Record<string, LockEntry> }): ProductionPackage[] {
  const seen = new Map<string, ProductionPackage>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (location === '' || entry.dev || entry.devOptional || entry.link) continue;
    const name = location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const version = entry.version ?? '?';
    seen.set(`${name}@${version}`, { name, version, licence: entry.license ?? null });
  }
  return [...seen.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
}

/**
 * Whether an SPDX expression is acceptable: an identifier in `allowed`; `A OR B` when either side
 * is; `A AND B` when both are. Parentheses group; `WITH` exceptions are not accepted blindly.
 */
export function licenceAllowed(expression: string, allowed: ReadonlySet<string>): boolean {
  const tokens = expression.replace(/[()]/g, ' $& ').trim().split(/\s+/);
  let position = 0;
  const peek = () => tokens[position];
  const orExpression = (): boolean => {
    let value = andExpression();
    while (peek() === 'OR') {
      position++;
      value = andExpression() || value;
    }
    return value;
  };
  const andExpression = (): boolean => {
    let value = term();
    while (peek() === 'AND') {
      position++;
      value = term() && value;
    }
    return value;
  };
  const term = (): boolean => {
    const token = tokens[position++];
    if (token === '(') {
      const value = orExpression();
      if (tokens[position++] !== ')') throw new Error(`unbalanced SPDX expression: ${expression}`);
      return value;
    }
    if (token === undefined || ['AND', 'OR', ')', 'WITH'].includes(token))
      throw new Error(`not an SPDX expression: ${expression}`);
    return allowed.has(token);
  };
  const value = orExpression();
  if (position !== tokens.length) return false;
  return value;
}

/** What the policy refuses: one line per package, empty when every production licence is allowed. */
export function licenceProblems(packages: ProductionPackage[], policy: LicencePolicy): string[] {
  const allowed = new Set(policy.allowed);
  const problems: string[] = [];
  for (const pkg of packages) {
    const found = policy.undeclared.find((u) => u.package === `${pkg.name}@${pkg.version}`);
    const licence = pkg.licence ?? found?.licence ?? null;
    if (licence === null) {
      problems.push(
        `${pkg.name}@${pkg.version} declares no licence: read its files, then list it under "undeclared"`,
      );
      continue;
    }
    let ok: boolean;
    try {
      ok = licenceAllowed(licence, allowed);
    } catch {
      ok = false;
    }
    if (ok) continue;
    const exception = policy.exceptions.find((e) => e.package === pkg.name && e.licence === licence);
    if (!exception)
      problems.push(`${pkg.name}@${pkg.version} is ${licence}: not allowed (tools/deps/licence-policy.json)`);
  }
  return problems;
}

export function readLicencePolicy(root: string): LicencePolicy {
  return JSON.parse(fs.readFileSync(path.join(root, 'tools', 'deps', 'licence-policy.json'), 'utf8'));
}
