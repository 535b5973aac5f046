// The pairs the soaks spread their swaps over, round-robin (swap n: pair n mod count), as clients
// spread theirs: same-chain swaps on either EVM chain, a bridge between them and a bridge to the
// devnet's Solana. Who builds each comes from the devnet manifest: devnet account 9 on the EVM
// source chains (funded on both; nothing is signed or broadcast), and Solana test wallet 9 as the
// recipient of the bridge to Solana (a recipient of the destination chain's family is required).

/** `mix`: the pairs below, round-robin; `single`: BENCH_QUOTE only (the soak before the mix). */
export const SOAK_PAIR_MODES = ['mix', 'single'] as const;
export type SoakPairMode = (typeof SOAK_PAIR_MODES)[number];

export interface QuoteRequest {
  fromChain: string;
  toChain: string;
  tokenIn: string;
  tokenOut: string;
  amount: string;
  recipient?: string;
}

/** One pair of the soak: what POST /quote asks and who builds the swap. */
export interface SwapPair {
  /** Its name in the reports, e.g. "devnet-a USDC→DAI". */
  name: string;
  quote: QuoteRequest;
  /** The build's userAddress: a funded account on the source chain. */
  userAddress: string;
  /** The build's recipient, when it is not userAddress (a destination chain of another family). */
  recipient?: string;
}

/** What the bench reads of the devnet manifest (libs/chains devnet-manifest-schema). */
export interface BenchManifest {
  chains: Array<{ id: string }>;
  accounts: Array<{ index: number; address: string }>;
  /** The local Solana chain; absent in manifests of commits before it existed. */
  solana?: { id: string; accounts: Array<{ index: number; address: string }> };
}

/** Devnet account 9 (EVM) and Solana test wallet 9: the bench's accounts (README, Decisions). */
export const BENCH_ACCOUNT_INDEX = 9;

const accountOf = (accounts: Array<{ index: number; address: string }>, index = BENCH_ACCOUNT_INDEX) =>
  accounts.find((a) => a.index === index)?.address;

/** The EVM account that builds the bench's swaps (account 9, else the manifest's first). */
export function benchUserAddress(manifest: BenchManifest): string {
  return accountOf(manifest.accounts) ?? manifest.accounts[0].address;
}

export interface SoakPairs {
  mode: SoakPairMode;
  pairs: SwapPair[];
  /** Pairs of the mix this devnet cannot quote (a chain missing from an older manifest), with why. */
  skipped: string[];
}

/**
 * The soak's pairs for `mode`: `single` is the one pair every other scenario quotes (`single`,
 * BENCH_QUOTE); `mix` starts with it and leaves out, naming it in `skipped`, a pair whose chain
 * the manifest lacks.
 */
export function soakPairsOf(
  mode: SoakPairMode,
  manifest: BenchManifest,
  single: Omit<QuoteRequest, 'recipient'>,
): SoakPairs {
  const userAddress = benchUserAddress(manifest);
  const singlePair: SwapPair = {
    name: `${single.fromChain} ${single.tokenIn}→${single.tokenOut}`,
    quote: { ...single },
    userAddress,
  };
  if (mode === 'single') return { mode, pairs: [singlePair], skipped: [] };

  const chains = new Set(manifest.chains.map((c) => c.id));
  const pairs: SwapPair[] = [singlePair];
  const skipped: string[] = [];
  if (chains.has('devnet-b')) {
    // Same-chain on the second chain, through its WETH/USDC pool (BENCH_QUOTE uses USDC/DAI).
    pairs.push({
      name: 'devnet-b USDC→WETH',
      quote: { fromChain: 'devnet-b', toChain: 'devnet-b', tokenIn: 'USDC', tokenOut: 'WETH', amount: '1' },
      userAddress,
    });
    // Cross-chain through the devnet bridge, USDC both ends (no swap leg): the same account receives.
    pairs.push({
      name: 'devnet-a USDC → devnet-b USDC',
      quote: { fromChain: 'devnet-a', toChain: 'devnet-b', tokenIn: 'USDC', tokenOut: 'USDC', amount: '10' },
      userAddress,
    });
  } else skipped.push('devnet-b pairs: no devnet-b in the devnet manifest');
  const solanaRecipient = manifest.solana && accountOf(manifest.solana.accounts);
  if (manifest.solana && solanaRecipient) {
    // The devnet's Solana has no swap venue: only the bridged USDC rides to it, to a Solana wallet.
    pairs.push({
      name: `devnet-a USDC → ${manifest.solana.id} USDC`,
      quote: {
        fromChain: 'devnet-a',
        toChain: manifest.solana.id,
        tokenIn: 'USDC',
        tokenOut: 'USDC',
        amount: '10',
        recipient: solanaRecipient,
      },
      userAddress,
      recipient: solanaRecipient,
    });
  } else skipped.push(`Solana pair: no Solana test wallet ${BENCH_ACCOUNT_INDEX} in the devnet manifest`);
  return { mode, pairs, skipped };
}
