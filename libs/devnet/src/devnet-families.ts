import { bitcoinFeeWalletSponsor } from './bitcoin/bitcoin-sponsor';
import { cosmosFeeGranterSponsor } from './cosmos/cosmos-sponsor';
import type { DevnetSponsor } from './devnet-sponsor';
import { relayerSponsor } from './relayer-sponsor';
import { solanaFeePayerSponsor } from './solana/solana-sponsor';

/**
 * The devnet's chain families beyond its EVM chains, each from its own folder: its sponsor (the
 * accounts signer-surface pays users' fees from on the devnet, one entry in DEVNET_SPONSORS, which
 * tools/stack/lib.mjs reads from dist/ for `npm start`, `npm test` and the bench) and its exports
 * (below, part of @swapgw/devnet). A new family plugs in here; its local chain starts in
 * start-devnet.ts, beside its end of the devnet bridge.
 */
export const DEVNET_SPONSORS: readonly DevnetSponsor[] = [
  relayerSponsor,
  solanaFeePayerSponsor,
  bitcoinFeeWalletSponsor,
  cosmosFeeGranterSponsor,
];

export * from './solana';
export * from './bitcoin';
export * from './cosmos';
