import path from 'node:path';
import { CompiledContract, repositoryRoot } from './compile';
import { packageFileArtifact, PublishedPackage, publishedPackageFiles } from './published-package';

/**
 * The published Across build artifacts the mainnet replica deploys: each chain's SpokePool
 * implementation and the ERC1967Proxy in front of it, from `@across-protocol/contracts` 5.0.27. Not
 * a dependency (its dependency tree is huge): the tarball is fetched once with `npm pack` into
 * .cache/across/ and accepted only when its sha512 equals the registry's integrity pinned below.
 */
export interface AcrossArtifacts {
  /** Ethereum's SpokePool (owned, no cross-domain messenger). */
  Ethereum_SpokePool: CompiledContract;
  /** Base's SpokePool (OP stack). */
  OP_SpokePool: CompiledContract;
  Arbitrum_SpokePool: CompiledContract;
  ERC1967Proxy: CompiledContract;
}

export const ACROSS_CONTRACTS_PACKAGE: PublishedPackage = {
  spec: '@across-protocol/contracts@5.0.27',
  tarball: 'across-protocol-contracts-5.0.27.tgz',
  /** `npm view @across-protocol/contracts@5.0.27 dist.integrity` */
  integrity:
    'sha512-zp6BEBTDzRGEp7sNvvdRH4jBF2EuTI4RqFWVvhfkO28630Ow2hbCYeYiyTOjEOzAdqt+dn/sba9D9WirfwabWQ==',
};

const artifactPath = (name: keyof AcrossArtifacts) => `package/dist/evm/artifacts/${name}.sol/${name}.json`;

export function loadAcrossArtifacts(
  cacheDir = path.join(repositoryRoot(), '.cache', 'across'),
): AcrossArtifacts {
  const files = publishedPackageFiles(ACROSS_CONTRACTS_PACKAGE, cacheDir);
  const artifact = (name: keyof AcrossArtifacts) =>
    packageFileArtifact(ACROSS_CONTRACTS_PACKAGE, files, artifactPath(name));
  return {
    Ethereum_SpokePool: artifact('Ethereum_SpokePool'),
    OP_SpokePool: artifact('OP_SpokePool'),
    Arbitrum_SpokePool: artifact('Arbitrum_SpokePool'),
    ERC1967Proxy: artifact('ERC1967Proxy'),
  };
}
