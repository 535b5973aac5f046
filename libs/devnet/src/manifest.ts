import {
  DevnetManifestError,
  readCompleteDevnetManifest,
  type DevnetChain,
  type DevnetManifest,
} from '@swapgw/chains/devnet-manifest';
import { DevnetError } from './devnet-error';

// The schema and its validator live in @swapgw/chains (services read the manifest); the devnet's
// code and tests keep importing them from here.
export type * from '@swapgw/chains/devnet-manifest';
export { devnetManifestProblems } from '@swapgw/chains/devnet-manifest';

/** Reads and checks a manifest written by `startDevnet`; the error names the offending field. */
export function loadDevnetManifest(manifestPath: string): DevnetManifest {
  try {
    return readCompleteDevnetManifest(manifestPath);
  } catch (error) {
    if (!(error instanceof DevnetManifestError)) throw error;
    if (error.fault === 'unreadable') {
      throw new DevnetError(
        'MANIFEST_UNREADABLE',
        `${error.message}. Start the devnet first (npm run devnet).`,
        { manifestPath },
      );
    }
    throw new DevnetError(
      'MANIFEST_INVALID',
      error.message,
      error.problems.length > 0 ? { manifestPath, problems: error.problems } : { manifestPath },
    );
  }
}

/** Finds a chain by its API identifier (`devnet-a`), or throws naming the known ones. */
export function devnetChain(manifest: DevnetManifest, id: string): DevnetChain {
  const chain = manifest.chains.find((c) => c.id === id);
  if (!chain) {
    throw new DevnetError(
      'MANIFEST_INVALID',
      `Chain ${id} is not in the devnet manifest (has ${manifest.chains.map((c) => c.id).join(', ')})`,
    );
  }
  return chain;
}
