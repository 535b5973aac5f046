/**
 * What the service's Cosmos fee granter pays, in gas (the Cosmos part of the sponsored-gas table,
 * ../../sponsored-gas.ts): x/feegrant takes the fee of each Cosmos step from the granter, and the
 * granter sends the grant itself. A Cosmos fee is the whole gas limit at the chain's minimum gas
 * price, rounded up to a whole base unit of its fee denom (the SDK charges the fee named, not the
 * gas used): cosmosFeeOf.
 */
export const SPONSORED_COSMOS_GAS = {
  /**
   * A wallet's Cosmos transaction (one message: an IBC MsgTransfer, an Osmosis swap, a Noble burn),
   * its gas limit as issued (the simulation plus a quarter), upper figure: mainnet MsgTransfers use
   * 100,000 to 150,000 gas, Osmosis swaps up to 200,000 (the devnet's fixed meter charges less).
   */
  transaction: 300_000n,
  /** The granter's MsgGrantAllowance (after a MsgRevokeAllowance when it tops one up): its gas limit. */
  feeGrant: 200_000n,
} as const;

/** A node's minimum gas price (`0.005uatom`) as a fraction and its denom. */
export interface CosmosGasPrice {
  denom: string;
  numerator: bigint;
  denominator: bigint;
}

export function parseCosmosGasPrice(text: string): CosmosGasPrice {
  const match = /^(\d+)(?:\.(\d+))?([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(text.trim());
  if (!match) throw new Error(`${text} is not a gas price (amount and denom, e.g. 0.005uatom)`);
  const decimals = match[2] ?? '';
  return {
    denom: match[3],
    numerator: BigInt(match[1] + decimals),
    denominator: 10n ** BigInt(decimals.length),
  };
}

/** The fee of `gasLimit` at `price`, rounded up (what the node's minimum requires). */
export function cosmosFeeOf(gasLimit: bigint, price: CosmosGasPrice): bigint {
  return (gasLimit * price.numerator + price.denominator - 1n) / price.denominator;
}

/** `price` in Cosmos notation, as cosmjs `GasPrice.fromString` reads it (`0.005uatom`). */
export function cosmosGasPriceText(price: CosmosGasPrice): string {
  const whole = (price.numerator / price.denominator).toString();
  const digits = price.denominator.toString().length - 1;
  if (digits === 0) return `${whole}${price.denom}`;
  const fraction = (price.numerator % price.denominator).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''}${price.denom}`;
}

/** The price rounded up to a whole base unit per gas: an integer that, times the gas, bounds the fee from above. */
export function cosmosGasPriceCeiling(price: CosmosGasPrice): bigint {
  return (price.numerator + price.denominator - 1n) / price.denominator;
}

/**
 * The sponsored-fee rates of a Cosmos chain whose minimum gas price is `minGasPrice` (its registry
 * figure): exact in `gasPrice`, rounded up to a whole base unit per gas in `feePerGas`; no rent.
 */
export function cosmosFeeRatesOf(minGasPrice: string): {
  feePerGas: bigint;
  tokenAccountRent: bigint;
  gasPrice: CosmosGasPrice;
} {
  const price = parseCosmosGasPrice(minGasPrice);
  return { feePerGas: cosmosGasPriceCeiling(price), tokenAccountRent: 0n, gasPrice: price };
}
