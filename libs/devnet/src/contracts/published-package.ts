import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DevnetError } from '../devnet-error';
import { CompiledContract } from './compile';

/**
 * A package of the npm registry whose build artifacts the devnet deploys without depending on it
 * (its dependency tree is too large or pulls install scripts): `spec` is what `npm pack` fetches,
 * `tarball` the file it writes, `integrity` the registry's `dist.integrity` the tarball must match.
 */
export interface PublishedPackage {
  spec: string;
  tarball: string;
  /** `npm view <spec> dist.integrity` */
  integrity: string;
}

/**
 * The package's regular files (path in the tarball → text), from the verified tarball in `cacheDir`,
 * fetched there with `npm pack` on first use and accepted only when its sha512 equals the pinned
 * integrity.
 */
export function publishedPackageFiles(pkg: PublishedPackage, cacheDir: string): Map<string, string> {
  return readTarball(verifiedPackageTarball(pkg, cacheDir));
}

/** The verified tarball in the cache, fetched with `npm pack` on first use. */
export function verifiedPackageTarball(pkg: PublishedPackage, cacheDir: string): Buffer {
  const file = path.join(cacheDir, pkg.tarball);
  if (!fs.existsSync(file)) {
    // A directory of our own, renamed into place: two starts fetching at once never see half a file.
    const staging = fs.mkdtempSync(path.join(ensureDir(cacheDir), 'pack-'));
    try {
      const npm = spawnSync(npmCommand(), ['pack', pkg.spec, '--pack-destination', staging, '--silent'], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      const packed = path.join(staging, pkg.tarball);
      if (npm.status !== 0 || !fs.existsSync(packed))
        throw new DevnetError(
          'DEPLOYMENT_FAILED',
          `npm pack ${pkg.spec} failed (status ${npm.status}): ${(npm.stderr || npm.error?.message || '').trim().slice(-600)}`,
        );
      fs.renameSync(packed, file);
    } finally {
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  const bytes = fs.readFileSync(file);
  const integrity = `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
  if (integrity !== pkg.integrity) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${file} has integrity ${integrity}, not the registry's ${pkg.integrity}: delete it to fetch it again`,
    );
  }
  return bytes;
}

/** npm beside the running node (the project's Node 24 puts its own first), else the PATH's. */
function npmCommand(): string {
  const sibling = path.join(path.dirname(process.execPath), process.platform === 'win32' ? 'npm.cmd' : 'npm');
  return fs.existsSync(sibling) ? sibling : 'npm';
}

/** Regular files of a .tgz (ustar, as npm writes it), keyed by path. */
export function readTarball(gzipped: Buffer): Map<string, string> {
  const tar = gunzipSync(gzipped);
  const files = new Map<string, string>();
  const field = (offset: number, length: number) =>
    tar.toString('utf8', offset, offset + length).replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= tar.length;) {
    const name = field(offset, 100);
    if (!name) break;
    const size = parseInt(field(offset + 124, 12).trim() || '0', 8);
    const type = field(offset + 156, 1);
    const prefix = field(offset + 345, 155);
    const fullName = prefix ? `${prefix}/${name}` : name;
    if (type === '0' || type === '')
      files.set(fullName, tar.toString('utf8', offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** A Hardhat artifact's ABI and creation bytecode; `source` names it in errors. */
export function artifactOf(text: string, source: string): CompiledContract {
  const json = JSON.parse(text) as { abi: unknown[]; bytecode?: string };
  if (!json.bytecode || json.bytecode === '0x')
    throw new DevnetError('DEPLOYMENT_FAILED', `${source} has no creation bytecode`);
  return { abi: json.abi, bytecode: json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}` };
}

/** The artifact at `file` of a published package's files, or an error naming the package. */
export function packageFileArtifact(
  pkg: PublishedPackage,
  files: Map<string, string>,
  file: string,
): CompiledContract {
  const text = files.get(file);
  if (!text) throw new DevnetError('DEPLOYMENT_FAILED', `${pkg.spec} has no ${file}`);
  return artifactOf(text, file);
}

function ensureDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
