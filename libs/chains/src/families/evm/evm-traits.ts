import { isAddress } from 'ethers';
import { permitLegProblem, permitVenueOf } from '../../permit-contracts';
import type { FamilyTraits, SplitStep } from '../family-traits';
import { checksumEvmAddress, validateEvmAddress } from './evm-address';
import { evmGasUnitsOf, evmIntegratorFeeGas, SPONSORED_EVM_GAS } from './evm-sponsored-gas';

/** What the EVM family answers to the shared code (family-traits.ts). */
export const evmTraits: FamilyTraits = {
  label: 'EVM',
  addressDescription: 'an EVM address (checksummed or lowercase)',
  validateAddress: (address) => validateEvmAddress(address),
  // Hex is case-insensitive: EIP-55 only adds a checksum in the letter case.
  caseInsensitiveAddresses: true,
  caipNamespace: 'eip155',
  payloadTypes: {
    'evm-transaction': 'evm-transaction',
    'eip2612-permit': 'evm-typed-data',
    'permit2-intent': 'evm-typed-data',
  },
  carriesIntegratorFees: true,
  // Paid by the chain's SwapGatewayRouter, which spends the rest through the leg's venue.
  integratorFeeLegProblem: (leg, chains) => {
    if (leg.call)
      return `the first leg (${leg.provider}) is a prebuilt call the SwapGatewayRouter cannot make`;
    if (leg.kind !== 'bridge' && !leg.path) return `the first leg (${leg.provider}) has no Uniswap path`;
    const contracts = chains.permitContractsOf(leg.chain);
    if (!contracts) return `${leg.chain} has no SwapGatewayRouter`;
    const venue = permitVenueOf(leg, contracts);
    if (!venue || venue.toLowerCase() !== leg.spender.toLowerCase())
      return `the first leg (${leg.provider}) does not go through a venue the SwapGatewayRouter of ${leg.chain} calls`;
    return null;
  },
  tokens: {
    chainReference: /^\d+$/,
    kinds: ['erc20'],
    isTokenAddress: (address) => validateEvmAddress(address).ok,
    assetKeyOf: (address) => (isAddress(address) ? address.toLowerCase() : undefined),
    catalogFieldsOf: (address) => {
      try {
        return { address: checksumEvmAddress(address.toLowerCase()), mint: null };
      } catch {
        return undefined;
      }
    },
    metadataOnChain: true,
  },
  forwardsBridgePayouts: false,
  /**
   * Sponsored, ERC-20 input through the chain's SwapGatewayRouter (an Across deposit too): an
   * approve of Permit2 (the token's EIP-2612 permit when it has one, else the wallet's own approve
   * transaction), then the leg as a Permit2 witness. User-paid first leg with a permit: an approve
   * of Permit2 when the permit is Permit2's and the allowance to it is short, then the router call
   * carrying the permit. Any other leg: an approve of the leg's spender when the input is an
   * ERC-20, then the leg's transaction.
   */
  splitLeg: ({ leg, legIndex, chains, options, own, approve }) => {
    const steps: SplitStep[] = [];
    const token = leg.tokenIn.address;
    const sponsored = options.gasPayment === 'sponsored';
    if (sponsored) {
      const contracts = chains.permitContractsOf?.(leg.chain);
      if (contracts && token !== null && permitLegProblem(leg, contracts, { sponsored }) === null) {
        const hasPermit = chains.tokenPermitOf?.(leg.chain, token) !== undefined;
        steps.push(approve(hasPermit ? 'eip2612-permit' : 'evm-transaction', 'permit2'));
        steps.push(own('permit2-intent'));
      } else {
        if (token !== null) steps.push(approve('evm-transaction', 'spender'));
        steps.push(own('evm-transaction'));
      }
      return steps;
    }
    const permit = legIndex === 0 ? options.firstLegPermit : undefined;
    if (permit === 'permit2' && (options.permit2Allowance ?? 0n) < BigInt(leg.amountIn)) {
      steps.push(approve('evm-transaction', 'permit2'));
    } else if (token !== null && !permit) {
      steps.push(approve('evm-transaction', 'spender'));
    }
    steps.push(own('evm-transaction'));
    return steps;
  },
  sponsoredCostsOfLeg: (leg, pay) => {
    const feeRecipients = leg.integratorFeeRecipients ?? [];
    const fees = evmIntegratorFeeGas(feeRecipients.length, leg.tokenIn.address === null);
    if (leg.tokenIn.address === null) {
      pay('native-input-top-up', leg.chain, 'evm', evmGasUnitsOf('native-input-top-up') + fees);
      return;
    }
    const allowance = leg.inputHasEip2612 ? 'permit' : 'approve-top-up';
    pay(allowance, leg.chain, 'evm', evmGasUnitsOf(allowance));
    const intent = leg.kind === 'bridge' ? 'bridge-intent' : 'swap-intent';
    // An Across deposit may carry the destination swap: counted at the dearer of its two calls.
    const gasUnits = leg.across ? SPONSORED_EVM_GAS.acrossSwapIntent : evmGasUnitsOf(intent);
    pay(intent, leg.chain, 'evm', gasUnits + fees);
  },
  bridgeReleaseCosts: (leg, pay) =>
    pay('bridge-release', leg.destinationChain, 'evm', evmGasUnitsOf('bridge-release')),
  // 2 gwei per gas, the order of Ethereum mainnet's recent fees (well above an L2's).
  sponsoredFeeFallback: { feePerGas: 2_000_000_000n, tokenAccountRent: 0n },
  nativeCoinFallback: { nativeSymbol: 'ETH', nativeDecimals: 18 },
};
