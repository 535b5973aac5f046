import type { SponsoredGasKind } from '@swapgw/contracts';

/**
 * What the service's relayers pay on EVM chains (the EVM part of the sponsored-gas table,
 * ../../sponsored-gas.ts): the gas of each transaction a sponsored swap costs them, and what
 * integrator fees add to the router call that pays them.
 */

/** Gas units of every EVM transaction a sponsored swap costs the relayer (approximate upper figures). */
export const SPONSORED_EVM_GAS = {
  /** The token's EIP-2612 `permit(owner, Permit2, ...)`, sent by the relayer. */
  permit: 60_000n,
  /** The user's own `approve(Permit2, max)` (tokens without EIP-2612), paid for by a gas top-up. */
  userApprove: 50_000n,
  /** A plain native transfer from the relayer to the user: the gas top-up itself. */
  gasTopUp: 21_000n,
  /**
   * The SwapGatewayRouter's `swapWithIntent` (Permit2 witness transfer + Uniswap V2 swap through
   * Router02's fee-on-transfer function, its output read at the recipient before and after): a
   * one-hop USDC → WETH measured 208,518 on the devnet.
   */
  swapIntent: 240_000n,
  /** The SwapGatewayRouter's `swapV3WithIntent` (Permit2 witness transfer + SwapRouter02 exactInput). */
  swapV3Intent: 260_000n,
  /** The SwapGatewayRouter's `bridgeWithIntent` (Permit2 witness transfer + bridge deposit). */
  bridgeIntent: 150_000n,
  /**
   * The SwapGatewayRouter's `bridgeAndSwapWithIntent` on the source chain (Permit2 witness transfer +
   * bridge deposit carrying the destination swap as its message).
   */
  bridgeSwapIntent: 200_000n,
  /** The SwapGatewayRouter's `acrossWithIntent` (Permit2 witness transfer + SpokePool deposit). */
  acrossIntent: 200_000n,
  /** `acrossAndSwapWithIntent`: as acrossIntent, the deposit carrying the destination swap as its message. */
  acrossSwapIntent: 240_000n,
  /** The user's own transaction of a native-input leg (value carries the input), paid by a top-up. */
  nativeInputUserTx: 150_000n,
  /** The relayer's `release` on the destination of a bridge it relays (new record + token transfer). */
  bridgeRelease: 80_000n,
} as const;

/**
 * What each integrator fee recipient adds to the EVM transaction that pays it (approximate upper
 * figures; the recipient is taken to be a fresh account, with no balance of the token yet). Part of
 * SPONSORED_FEE_RECIPIENT_COSTS (../../sponsored-gas.ts).
 */
export const EVM_FEE_RECIPIENT_COSTS = {
  /**
   * EVM gas of the router's ERC-20 `transfer` to the recipient, its `Transfer` event included: the
   * recipient's cold balance slot written from zero (2,100 + 20,000), the router's own balance, the
   * call and the token's checks (a proxied token such as USDC reads more).
   */
  evmTokenTransfer: 30_000n,
  /**
   * EVM gas of the router's native-coin call to the recipient (native-input leg): a cold account
   * (2,600), a value transfer (9,000) and a new account (25,000).
   */
  evmNativeTransfer: 37_000n,
  /**
   * EVM gas of the router's `IntegratorFeePaid` event (4 topics and 32 bytes of data: 2,131) and of
   * the fee's 64 bytes of calldata.
   */
  evmFeePaidEvent: 3_000n,
  /**
   * EVM gas paid once when an ERC-20 input pays any fee: the router approves the venue again for
   * what is left after the fees (`forceApprove`: a warm allowance write and its `Approval` event;
   * on the devnet the first fee costs about 3,200 gas more than the second).
   */
  evmTokenFeesReapproval: 5_000n,
} as const;

/**
 * EVM gas the integrator fees add to the router call (or native-input transaction) that pays them:
 * a transfer and an event per recipient, and for an ERC-20 input the venue's approval again, once.
 */
export function evmIntegratorFeeGas(recipients: number, nativeInput: boolean): bigint {
  if (recipients === 0) return 0n;
  const costs = EVM_FEE_RECIPIENT_COSTS;
  const transfer = nativeInput ? costs.evmNativeTransfer : costs.evmTokenTransfer;
  const once = nativeInput ? 0n : costs.evmTokenFeesReapproval;
  return once + BigInt(recipients) * (transfer + costs.evmFeePaidEvent);
}

/** The gas units of each EVM kind of sponsored cost (the table above). */
const EVM_GAS_OF_KIND: Partial<Record<SponsoredGasKind, bigint>> = {
  permit: SPONSORED_EVM_GAS.permit,
  'approve-top-up': SPONSORED_EVM_GAS.userApprove + SPONSORED_EVM_GAS.gasTopUp,
  'swap-intent': SPONSORED_EVM_GAS.swapIntent,
  'bridge-intent': SPONSORED_EVM_GAS.bridgeIntent,
  'native-input-top-up': SPONSORED_EVM_GAS.nativeInputUserTx + SPONSORED_EVM_GAS.gasTopUp,
  'bridge-release': SPONSORED_EVM_GAS.bridgeRelease,
};

/** Gas units of one EVM step kind (the table above); 0 for the other families' kinds. */
export function evmGasUnitsOf(kind: SponsoredGasKind): bigint {
  return EVM_GAS_OF_KIND[kind] ?? 0n;
}
