import fs from 'node:fs';
import type { DevnetManifest, DevnetManifestView } from './devnet-manifest-schema';
import { devnetManifestProblems, type DevnetManifestCheck } from './devnet-manifest-validation';

/** Where `npm run devnet` writes the manifest unless DEVNET_MANIFEST says otherwise. */
export const DEFAULT_DEVNET_MANIFEST = '.run/devnet/manifest.json';

/** Why a manifest was refused: no file to read, or a file that is not a valid manifest. */
export type DevnetManifestFault = 'unreadable' | 'invalid';

export class DevnetManifestError extends Error {
  constructor(
    message: string,
    readonly fault: DevnetManifestFault,
    /** One message per malformed field (devnetManifestProblems), empty when the file is not JSON. */
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'DevnetManifestError';
  }
}

/**
 * Reads a manifest as services may be given one (DevnetManifestView: a devnet's, the mainnet
 * replica's, or an older one); throws DevnetManifestError naming the path and every problem.
 */
export function readDevnetManifest(manifestPath: string): DevnetManifestView {
  return readManifest(manifestPath, 'view');
}

/** Reads the complete manifest `startDevnet` wrote (every section there), or throws DevnetManifestError. */
export function readCompleteDevnetManifest(manifestPath: string): DevnetManifest {
  return readManifest(manifestPath, 'complete') as DevnetManifest;
}

function readManifest(manifestPath: string, check: DevnetManifestCheck): DevnetManifestView {
  let text: string;
  try {
    text = fs.readFileSync(manifestPath, 'utf8');
  } catch (error) {
    throw new DevnetManifestError(
      `Cannot read the devnet manifest at ${manifestPath}: ${(error as Error).message}`,
      'unreadable',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new DevnetManifestError(
      `The devnet manifest at ${manifestPath} is not JSON: ${(error as Error).message}`,
      'invalid',
    );
  }
  const problems = devnetManifestProblems(parsed, check);
  if (problems.length > 0) {
    throw new DevnetManifestError(
      `The devnet manifest at ${manifestPath} is invalid: ${problems.join('; ')}`,
      'invalid',
      problems,
    );
  }
  return parsed as DevnetManifestView;
}
