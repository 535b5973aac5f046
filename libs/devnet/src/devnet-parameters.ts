import { getAddress, keccak256, parseUnits, toUtf8Bytes } from 'ethers';
import { devnetWallet } from './accounts';

/** The two chains of the devnet, in the order and with the ids every other part relies on. */
export const DEVNET_CHAINS = [
  { id: 'devnet-a', name: 'Devnet A', chainId: 31337, defaultPort: 8545 },
  { id: 'devnet-b', name: 'Devnet B', chainId: 31338, defaultPort: 8546 },
] as const;

export type DevnetChainSpec = (typeof DEVNET_CHAINS)[number];

/** Mnemonic account roles. 1-9 are the users' accounts; the bridge relayer gets its own key. */
export const DEPLOYER_INDEX = 0;
export const USER_ACCOUNT_INDICES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
export const RELAYER_INDEX = 10;
/**
 * signer-surface's gas-sponsorship relayers (RELAYER_KEYS): they send, and pay for, the
 * transactions carrying users' signatures. Four, the same on every EVM chain, so two signer-surface
 * instances each have an account to themselves and spares; apart from the users' and the bridge
 * relayer's accounts, whose nonces they must not share.
 */
export const SPONSOR_RELAYER_INDICES = [12, 13, 14, 15] as const;
/**
 * The mainnet replica's Across relayer (libs/devnet/src/replica/across-filler.ts): it fills deposits
 * with its own USDC and WETH, so its nonces and balances are shared with no other role.
 */
export const ACROSS_RELAYER_INDEX = 11;
/**
 * The devnet THORChain vault on the EVM chains: THORChain's inbound address there (the router credits
 * deposits to it) and the signer of its refunds (the router's transferOut), nonces shared with no one.
 */
export const THORCHAIN_VAULT_INDEX = 16;
/** Anvil funds indices 0..ANVIL_ACCOUNTS-1 with 10,000 ETH each; must cover every role above. */
export const ANVIL_ACCOUNTS = 17;
/**
 * Where the devnet places its THORChain router (ThorchainRouter.sol) on every EVM chain: a fixed
 * address (the last 20 bytes of keccak256("swapgw devnet THORChain router")), as THORChain's own
 * routers sit at one address per chain. The local THORNode names it as each chain's `router`.
 */
export const DEVNET_THORCHAIN_ROUTER = getAddress(
  `0x${keccak256(toUtf8Bytes('swapgw devnet THORChain router')).slice(-40)}`,
);

/**
 * RELAYER_KEYS of signer-surface on the devnet, `{"<chain id>": ["0x<private key>", ...]}`: the
 * sponsor relayers' keys on each of `chainIds` (default: the devnet's EVM chains).
 */
export function devnetRelayerKeys(
  mnemonic: string,
  chainIds: readonly string[] = DEVNET_CHAINS.map((c) => c.id),
): Record<string, string[]> {
  const keys = SPONSOR_RELAYER_INDICES.map((index) => devnetWallet(mnemonic, index).privateKey);
  return Object.fromEntries(chainIds.map((id) => [id, [...keys]]));
}

export const TOKENS = {
  USDC: { name: 'USD Coin', symbol: 'USDC', decimals: 6 },
  DAI: { name: 'Dai Stablecoin', symbol: 'DAI', decimals: 18 },
  WETH: { name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 },
} as const;
/**
 * The devnet's fee-on-transfer token (DevnetTaxedToken): buys from and sells into its pool are
 * taxed, the tax going to `treasury` (an address without a key). quote-service must find these
 * figures on chain (its token-tax probe), never read them from here.
 */
export const TAXED_TOKEN = {
  name: 'Taxed Token',
  symbol: 'TAX',
  decimals: 18,
  buyTaxBps: 300,
  sellTaxBps: 500,
  treasury: '0x000000000000000000000000000000000000Fee5',
} as const;

/** EIP-712 domain version of OpenZeppelin ERC20Permit. */
export const PERMIT_VERSION = '1';

const usdc = (amount: string) => parseUnits(amount, TOKENS.USDC.decimals);
const dai = (amount: string) => parseUnits(amount, TOKENS.DAI.decimals);
const ether = (amount: string) => parseUnits(amount, 18);

/**
 * Pool seeding: 1 WETH = 3000 USDC = 3000 DAI, USDC/DAI 1:1, with 1,000 WETH per WETH pool so a
 * 1 WETH swap moves the price ~0.1% (deep) while a 100 WETH swap visibly slips (finite).
 */
export const POOLS = {
  'WETH/USDC': { a: 'WETH', b: 'USDC', amountA: ether('1000'), amountB: usdc('3000000') },
  'WETH/DAI': { a: 'WETH', b: 'DAI', amountA: ether('1000'), amountB: dai('3000000') },
  'USDC/DAI': { a: 'USDC', b: 'DAI', amountA: usdc('3000000'), amountB: dai('3000000') },
  /** 1 TAX = 0.1 USDC before taxes; only TAX's own pool is taxed. */
  'TAX/USDC': { a: 'TAX', b: 'USDC', amountA: ether('1000000'), amountB: usdc('100000') },
} as const;

/** What each user account (1-9) holds on every chain, besides anvil's 10,000 ETH. */
export const USER_FUNDING = { WETH: ether('100'), USDC: usdc('1000000'), DAI: dai('1000000') } as const;

export const BRIDGE = {
  provider: 'devnet-bridge',
  token: 'USDC',
  feeBps: 5,
  /** USDC each chain's bridge holds to pay releases from. */
  liquidity: usdc('10000000'),
} as const;

/** How often the relayer polls each chain for deposits. */
export const RELAYER_POLL_INTERVAL_MS = 500;
/** Budget for the RPC round trips of one relay (log query, released check, release receipt). */
export const RELAY_ROUND_TRIP_BUDGET_MS = 1000;

/**
 * Honest upper bound from the deposit's receipt to the release on the destination: the deposit
 * is seen at the latest one poll interval later (one confirmation: its own block), then the
 * release waits for its block (automine: at once; interval mining: up to one block time).
 */
export function estimateBridgeDurationSeconds(
  pollIntervalMs: number,
  blockTimeSeconds: number | undefined,
): number {
  const blockWaitMs = (blockTimeSeconds ?? 0) * 1000;
  return Math.ceil((pollIntervalMs + blockWaitMs + RELAY_ROUND_TRIP_BUDGET_MS) / 1000);
}

/** Solana slot length of the local chain: Solana's target slot time. */
export const SOLANA_SLOT_MS = 400;

/**
 * Honest upper bound for a Solana leg, either direction, from the deposit's receipt (EVM receipt,
 * or Solana sendTransaction returning) to the release: up to one slot for a Solana deposit to be
 * `confirmed` (the relayer reads confirmed history), up to one poll interval before the relayer
 * looks, up to one more slot while a Solana release in the same round waits for its confirmation,
 * the EVM block wait under interval mining, and the RPC budget.
 */
export function estimateSolanaBridgeDurationSeconds(
  pollIntervalMs: number,
  slotMs: number,
  blockTimeSeconds: number | undefined,
): number {
  const blockWaitMs = (blockTimeSeconds ?? 0) * 1000;
  return Math.ceil((pollIntervalMs + 2 * slotMs + blockWaitMs + RELAY_ROUND_TRIP_BUDGET_MS) / 1000);
}

/**
 * Honest upper bound for a Bitcoin leg, either direction: up to one block for the deposit to
 * confirm (the relayer reads confirmed blocks), one poll interval, one more block for the BTC payout
 * to confirm (into Bitcoin), the EVM block wait under interval mining, and the RPC budget.
 */
export function estimateBitcoinBridgeDurationSeconds(
  pollIntervalMs: number,
  blockMs: number,
  blockTimeSeconds: number | undefined,
): number {
  const blockWaitMs = (blockTimeSeconds ?? 0) * 1000;
  return Math.ceil((pollIntervalMs + 2 * blockMs + blockWaitMs + RELAY_ROUND_TRIP_BUDGET_MS) / 1000);
}
