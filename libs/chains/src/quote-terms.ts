import { CodedError, ErrorCodes, HUMAN_AMOUNT } from '@swapgw/contracts';
import { type AddressCheckedChain, validateAddressForChain } from './address-validation';
import type { ChainDescriptor } from './chain-descriptor';

/**
 * The checks of a swap's terms (chains of the requested network, known tokens, amounts within the
 * token's decimals, a recipient of the destination chain's family), with the error codes and
 * messages POST /quote answers. One implementation: quote-service applies it to quotes and
 * limit-order-service to limit orders (create and replace), so the same terms get the same 400.
 * Each side supplies the lookups (quote-service its registry and catalog tables,
 * limit-order-service the catalog over Kafka); the verdicts and messages are made here.
 */

export type TermsField = 'fromChain' | 'toChain';
export type TokenField = 'tokenIn' | 'tokenOut';

/** A chain as the checks need it: GET /chains entries and ChainDescriptor both fit. */
export type TermsChain = Pick<ChainDescriptor, 'id' | 'family' | 'network'>;

/**
 * The chain a term names, refused with UNKNOWN_CHAIN when it is not in GET /chains or belongs to
 * another network than the one asked for (devnet chains are testnets: mainnet with one of them is
 * a mismatch, not a route).
 */
export function checkTermsChain<C extends TermsChain>(
  chain: C | undefined,
  id: string,
  field: TermsField,
  network: string | undefined,
): C {
  if (!chain) {
    throw new CodedError(ErrorCodes.UNKNOWN_CHAIN, `${field} ${id} is not in GET /chains`, {
      field,
      chain: id,
    });
  }
  if (network && chain.network !== network) {
    throw new CodedError(
      ErrorCodes.UNKNOWN_CHAIN,
      `${field} ${id} is a ${chain.network} chain, not ${network}`,
      { field, chain: id, network },
    );
  }
  return chain;
}

/** UNKNOWN_TOKEN for a symbol the catalog does not list on that chain. */
export function unknownTokenError(field: TokenField, symbol: string, chainId: string): CodedError {
  return new CodedError(ErrorCodes.UNKNOWN_TOKEN, `${field} ${symbol} is not a known token on ${chainId}`, {
    chain: chainId,
    symbol,
    field,
  });
}

/** SAME_TOKEN: both sides name one token of one chain. */
export function sameTokenError(symbol: string, chainId: string): CodedError {
  return new CodedError(
    ErrorCodes.SAME_TOKEN,
    `tokenIn and tokenOut are the same token (${symbol}) on ${chainId}`,
  );
}

/** A recipient must be a wallet of the destination chain's family (INVALID_ADDRESS otherwise). */
export function checkTermsRecipient(recipient: string, chain: AddressCheckedChain): void {
  const check = validateAddressForChain(chain, recipient);
  if (!check.ok)
    throw new CodedError(ErrorCodes.INVALID_ADDRESS, `recipient ${check.reason}`, {
      field: 'recipient',
      chain: chain.id,
    });
}

/**
 * Human decimal string → base units, exactly (bigint, no floats). Rejects signs, exponents, zero,
 * and more fractional digits than the token has (INVALID_AMOUNT). `field` names the term in the
 * message (`amount`, or `minAmountOut` of a limit order).
 */
export function termsAmountToBaseUnits(amount: string, decimals: number, field = 'amount'): bigint {
  const trimmed = amount.trim();
  if (!HUMAN_AMOUNT.test(trimmed)) {
    throw new CodedError(
      ErrorCodes.INVALID_AMOUNT,
      `${field} "${amount}" is not a positive decimal string such as "1.5"`,
      { field },
    );
  }
  const [whole, fraction = ''] = trimmed.split('.');
  if (fraction.length > decimals) {
    throw new CodedError(
      ErrorCodes.INVALID_AMOUNT,
      `${field} "${amount}" has ${fraction.length} decimals; the token has ${decimals}`,
      {
        field,
        decimals,
      },
    );
  }
  const units = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (units <= 0n)
    throw new CodedError(ErrorCodes.INVALID_AMOUNT, `${field} must be greater than zero`, { field });
  return units;
}

/** Base units → the shortest human decimal string, exactly ("1500000", 6 → "1.5"; 0 → "0"). */
export function baseUnitsToAmount(units: bigint | string, decimals: number): string {
  const value = BigInt(units);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Whether a human `amount` of a token with `decimals` looks like base units sent by mistake: a whole
 * number of at least one whole token's worth of base units (10^decimals), for tokens of 6 decimals
 * or more ("25000000" USDC is 25 USDC in base units; asking for 25 million USDC is rare enough to
 * deserve the warning). It still quotes: the warning says what was probably meant.
 */
export function amountLooksLikeBaseUnits(amount: string, decimals: number): boolean {
  const trimmed = amount.trim();
  if (decimals < 6 || !/^[0-9]+$/.test(trimmed)) return false;
  return BigInt(trimmed) >= 10n ** BigInt(decimals);
}
