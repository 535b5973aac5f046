import { Contract, getAddress, parseUnits } from 'ethers';
import type { ChainDeployments } from '@swapgw/chains';
import { devnetWallet } from '../accounts';
import { RelayerLogger } from '../bridge/bridge-relayer';
import { AcrossArtifacts, loadAcrossArtifacts } from '../contracts/across-artifacts';
import { DevnetError } from '../devnet-error';
import { ACROSS_RELAYER_INDEX, DEPLOYER_INDEX, estimateBridgeDurationSeconds } from '../devnet-parameters';
import { localProvider } from '../evm-provider';
import { startAcrossFeeApi } from './across-fee-api';
import { AcrossFiller, approveSpokePool } from './across-filler';
import { placeAcrossSpokePool } from './across-spoke-pools';
import type { JsonRpcProvider } from 'ethers';

/** What the Across relayer (account ACROSS_RELAYER_INDEX) holds on every EVM replica chain to fill with. */
export const ACROSS_RELAYER_FUNDING = {
  USDC: parseUnits('10000000', 6),
  WETH: parseUnits('1000', 18),
} as const;
/** How often the filler polls each chain for FundsDeposited. */
export const ACROSS_FILLER_POLL_INTERVAL_MS = 500;

let acrossArtifacts: AcrossArtifacts | undefined;

export interface SetUpReplicaAcrossInput {
  catalog: ChainDeployments;
  chainId: number;
  provider: JsonRpcProvider;
  mnemonic: string;
}

/**
 * Across on one replica chain: its SpokePool at the catalog's address (placeAcrossSpokePool), and
 * the relayer funded with USDC (minted by the deployer, USDC's owner on the replica) and WETH
 * (wrapped from its own ETH), with the SpokePool approved for both so fills can pull them.
 */
export async function setUpReplicaAcross(input: SetUpReplicaAcrossInput): Promise<void> {
  const { catalog, chainId, provider, mnemonic } = input;
  acrossArtifacts ??= loadAcrossArtifacts();
  const deployer = devnetWallet(mnemonic, DEPLOYER_INDEX, provider);
  const { spokePool } = await placeAcrossSpokePool({
    catalog,
    chainId,
    provider,
    deployer,
    across: acrossArtifacts,
  });
  const relayer = devnetWallet(mnemonic, ACROSS_RELAYER_INDEX, provider);
  const usdc = tokenOf(catalog, 'USDC');
  const weth = tokenOf(catalog, 'WETH');
  try {
    const mint = new Contract(usdc, ['function mint(address,uint256)'], deployer);
    await (await mint.mint(relayer.address, ACROSS_RELAYER_FUNDING.USDC)).wait();
    const wrap = new Contract(weth, ['function deposit() payable'], relayer);
    await (await wrap.deposit({ value: ACROSS_RELAYER_FUNDING.WETH })).wait();
    await approveSpokePool(relayer, spokePool, [usdc, weth]);
  } catch (error) {
    throw new DevnetError(
      'DEPLOYMENT_FAILED',
      `${catalog.chain}: funding the Across relayer failed: ${(error as Error).message}`,
    );
  }
}

export interface ReplicaAcrossChain {
  id: string;
  chainId: number;
  rpcUrl: string;
  catalog: ChainDeployments;
}

export interface RunningReplicaAcross {
  /** Across's API base URL on the replica (`mainnetReplica.acrossApiUrl`). */
  apiUrl: string;
  filler: AcrossFiller;
  stop(): Promise<void>;
}

/**
 * The off-chain half of Across on the replica: the filler watching every chain's SpokePool, and the
 * suggested-fees API quoting what the filler fills, both in the replica's process.
 */
export async function startReplicaAcross(options: {
  chains: ReplicaAcrossChain[];
  mnemonic: string;
  host?: string;
  blockTimeSeconds?: number;
  pollIntervalMs?: number;
  logger?: RelayerLogger;
}): Promise<RunningReplicaAcross> {
  const pollIntervalMs = options.pollIntervalMs ?? ACROSS_FILLER_POLL_INTERVAL_MS;
  const chains = options.chains.map((chain) => {
    const provider = localProvider(chain.rpcUrl, chain.chainId);
    if (!chain.catalog.across) throw new DevnetError('DEPLOYMENT_FAILED', `${chain.id} has no SpokePool`);
    return {
      ...chain,
      provider,
      relayer: devnetWallet(options.mnemonic, ACROSS_RELAYER_INDEX, provider),
      spokePool: getAddress(chain.catalog.across.spokePool),
    };
  });
  const destroy = () => chains.forEach((chain) => chain.provider.destroy());
  const filler = new AcrossFiller(chains, { pollIntervalMs, logger: options.logger ?? stderrLogger() });
  try {
    await filler.start();
    const api = await startAcrossFeeApi({
      chains: chains.map((chain) => ({
        ...chain,
        tokens: chain.catalog.tokens.flatMap((t) =>
          t.address ? [{ symbol: t.symbol, address: getAddress(t.address), decimals: t.decimals }] : [],
        ),
      })),
      relayer: chains[0].relayer.address,
      expectedFillTimeSec: estimateBridgeDurationSeconds(pollIntervalMs, options.blockTimeSeconds),
      host: options.host,
    });
    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        await Promise.all([filler.stop(), api.close()]);
        destroy();
      })());
    return { apiUrl: api.url, filler, stop };
  } catch (error) {
    await filler.stop();
    destroy();
    throw error;
  }
}

function tokenOf(catalog: ChainDeployments, symbol: string): string {
  const address = catalog.tokens.find((t) => t.symbol === symbol)?.address;
  if (!address) throw new DevnetError('DEPLOYMENT_FAILED', `catalog ${catalog.chain} has no ${symbol}`);
  return getAddress(address);
}

/** JSON lines on stderr, leaving stdout to the CLI's readiness lines. */
export function stderrLogger(): RelayerLogger {
  const write = (level: string) => (message: unknown, context?: string) =>
    process.stderr.write(
      `${JSON.stringify({ level, time: new Date().toISOString(), service: 'mainnet-replica', context, ...(typeof message === 'object' ? message : { msg: message }) })}\n`,
    );
  return { log: write('info'), warn: write('warn'), error: write('error') };
}
