import fs from 'node:fs';
import path from 'node:path';
import type { DevnetManifest, MainnetReplicaManifest } from '@swapgw/chains/devnet-manifest';

/** Writes the manifest atomically (temp file + rename) so a reader never sees half a file. */
export function writeDevnetManifest(
  manifestPath: string,
  manifest: DevnetManifest | MainnetReplicaManifest,
): void {
  fs.mkdirSync(path.dirname(path.resolve(manifestPath)), { recursive: true });
  const temp = `${manifestPath}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(manifest, null, 2) + '\n');
  fs.renameSync(temp, manifestPath);
}

/** Removes the manifest at `manifestPath` if it is still the one written at `generatedAtMs`. */
export function removeManifestIfWrittenAt(manifestPath: string, generatedAtMs: number): void {
  try {
    const current = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { generatedAtMs?: number };
    if (current.generatedAtMs === generatedAtMs) fs.rmSync(manifestPath, { force: true });
  } catch {
    // Already gone or replaced by another run: nothing of ours to remove.
  }
}
