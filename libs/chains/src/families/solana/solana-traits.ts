import type { FamilyTraits } from '../family-traits';
import { validateSolanaAddress } from './solana-address';
import { SOLANA_FEE_RECIPIENT_TOKEN_ACCOUNTS, SOLANA_SPONSORED_FEES } from './solana-sponsored-gas';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** What the Solana family answers to the shared code (family-traits.ts). */
export const solanaTraits: FamilyTraits = {
  label: 'Solana',
  addressDescription: 'a base58 Solana address',
  validateAddress: (address) => validateSolanaAddress(address),
  // base58 (keys and mints) is case-sensitive: compared as written.
  caseInsensitiveAddresses: false,
  caipNamespace: 'solana',
  payloadTypes: { 'solana-transaction': 'solana-versioned-transaction' },
  carriesIntegratorFees: true,
  // A token transfer per recipient in the bridge deposit's transaction the signer builds; an
  // aggregator's transaction is signed as built.
  integratorFeeLegProblem: (leg) =>
    leg.kind === 'bridge'
      ? null
      : `the ${leg.provider} transaction on ${leg.chain} is signed as the aggregator built it, without these fees`,
  // `solana:mainnet` for Solana mainnet-beta, besides its genesis-hash reference.
  caip2Aliases: { 'solana:mainnet': 'solana' },
  tokens: {
    chainReference: /^/,
    kinds: ['spl', 'token'],
    isTokenAddress: (address) => validateSolanaAddress(address).ok,
    assetKeyOf: (address) => (BASE58.test(address) ? address : undefined),
    catalogFieldsOf: (address) => (BASE58.test(address) ? { address: null, mint: address } : undefined),
    metadataOnChain: false,
  },
  forwardsBridgePayouts: false,
  // One transaction per leg (SPL transfers need no allowance).
  splitLeg: ({ own }) => [own('solana-transaction')],
  sponsoredCostsOfLeg: (leg, pay) => {
    const feeRecipients = leg.integratorFeeRecipients ?? [];
    pay('solana-transaction', leg.chain, 'solana', SOLANA_SPONSORED_FEES.userTransactionSignatures);
    // An SPL fee creates each recipient's associated token account it lacks, at the fee payer's rent.
    if (leg.tokenIn.address !== null && feeRecipients.length > 0) {
      const accounts = feeRecipients.length * SOLANA_FEE_RECIPIENT_TOKEN_ACCOUNTS;
      pay('solana-ata-rent', leg.chain, 'solana', 0n, accounts);
    }
    // A swap into an SPL token may create the recipient's associated token account for it.
    if (leg.kind === 'swap' && leg.tokenOut.address !== null)
      pay('solana-ata-rent', leg.chain, 'solana', 0n, 1);
  },
  bridgeReleaseCosts: (leg, pay) => {
    pay('bridge-release', leg.destinationChain, 'solana', SOLANA_SPONSORED_FEES.releaseSignatures);
    if (leg.tokenOut.address !== null) pay('solana-ata-rent', leg.destinationChain, 'solana', 0n, 1);
  },
  // The protocol's base fee and the rent of a token account, which do not depend on the moment.
  sponsoredFeeFallback: {
    feePerGas: SOLANA_SPONSORED_FEES.lamportsPerSignature,
    tokenAccountRent: SOLANA_SPONSORED_FEES.tokenAccountRent,
  },
  nativeCoinFallback: { nativeSymbol: 'SOL', nativeDecimals: 9 },
};
