import {
  AddressCheckedChain,
  ChainFamily,
  familyTraitsOf,
  validateAddressForChain,
  validateSignerKeyForChain,
} from '@swapgw/chains';
import { CodedError, ErrorCodes, RoutePlan } from '@swapgw/contracts';
import type { StepPlanRequest } from './step-plan-request';

/**
 * Who signs what. The user's wallet (`userAddress`) signs on the source chain's family; on a
 * cross-family route (EVM ⇄ Solana) the other family's steps are signed by the recipient, the only
 * wallet of that family the request names, which therefore is required there.
 */
export interface SwapWallets {
  userAddress: string;
  /** userAddress's public key, when the request told it (checked against the address). */
  userPublicKey?: string;
  finalRecipient: string;
  /** The wallet that holds funds and signs on `chain`. */
  walletOn(chain: string): string;
  /**
   * The public key of walletOn(chain) when the request told it: userPublicKey on the source chain,
   * and on another Cosmos chain where the wallet is the same key under that chain's prefix (a
   * wallet's first transaction there, e.g. its burn on Noble, needs it: no key on chain yet).
   */
  publicKeyOn(chain: string): string | undefined;
}

/**
 * Validates the addresses against the route (userAddress: the family of the first leg's chain;
 * recipient: the destination's; a Bitcoin address also of the chain's network, when `chainOf` tells
 * it; a Bitcoin Taproot or nested-SegWit userAddress with its userPublicKey) and names the wallet of
 * each chain. 400 INVALID_ADDRESS otherwise.
 */
export function walletsOf(
  plan: RoutePlan,
  request: Pick<StepPlanRequest, 'userAddress' | 'userPublicKey' | 'recipient'>,
  familyOf: (chain: string) => ChainFamily,
  chainOf: (chain: string) => AddressCheckedChain = (chain) => ({ id: chain, family: familyOf(chain) }),
): SwapWallets {
  if (plan.legs.length === 0) throw new Error(`Route ${plan.routeId} of quote ${plan.quoteId} has no legs`);
  const sourceChain = plan.legs[0].chain;
  const sourceFamily = familyOf(sourceChain);
  const destinationFamily = familyOf(plan.toChain);
  assertAddress('userAddress', request.userAddress, chainOf(sourceChain));
  assertSignerKey(request.userAddress, request.userPublicKey, chainOf(sourceChain));
  const finalRecipient =
    request.recipient ??
    plan.recipient ??
    (sourceFamily === destinationFamily ? request.userAddress : undefined);
  if (finalRecipient === undefined) {
    throw new CodedError(
      ErrorCodes.INVALID_ADDRESS,
      `This route goes from ${sourceChain} (${sourceFamily}) to ${plan.toChain} (${destinationFamily}): a recipient on ${plan.toChain} is required`,
      { field: 'recipient', chain: plan.toChain, family: destinationFamily },
    );
  }
  assertAddress(
    request.recipient !== undefined ? 'recipient' : 'quote.recipient',
    finalRecipient,
    chainOf(plan.toChain),
  );
  // A family spelling one key per chain (Cosmos: each chain's prefix): past the source chain the
  // wallet is the recipient on the destination, elsewhere the user's key as that chain spells it.
  const addressOfSameKey = familyTraitsOf(sourceFamily).addressOfSameKey;
  const userKeyAs = (chain: string): string | undefined =>
    familyOf(chain) === sourceFamily ? addressOfSameKey?.(request.userAddress, chainOf(chain)) : undefined;
  const walletOn = (chain: string): string => {
    if (addressOfSameKey && familyOf(chain) === sourceFamily && chain !== sourceChain) {
      if (chain === plan.toChain) return finalRecipient;
      const address = userKeyAs(chain);
      if (address === undefined) throw new Error(`Chain ${chain} spells no address of the user's key`);
      return address;
    }
    return familyOf(chain) === sourceFamily ? request.userAddress : finalRecipient;
  };
  const userKeyOn = (chain: string): boolean => {
    if (chain === sourceChain || walletOn(chain) === request.userAddress) return true;
    const address = userKeyAs(chain);
    return address !== undefined && walletOn(chain) === address;
  };
  return {
    userAddress: request.userAddress,
    ...(request.userPublicKey !== undefined ? { userPublicKey: request.userPublicKey } : {}),
    finalRecipient,
    walletOn,
    publicKeyOn: (chain) => (userKeyOn(chain) ? request.userPublicKey : undefined),
  };
}

/** 400 INVALID_ADDRESS (field userPublicKey) when the wallet cannot sign with what the request tells of it. */
function assertSignerKey(address: string, publicKey: string | undefined, chain: AddressCheckedChain): void {
  const result = validateSignerKeyForChain(chain, address, publicKey);
  if (!result.ok) {
    throw new CodedError(ErrorCodes.INVALID_ADDRESS, `userPublicKey: ${result.reason}`, {
      field: 'userPublicKey',
      chain: chain.id,
      family: chain.family,
    });
  }
}

function assertAddress(field: string, address: string, chain: AddressCheckedChain): void {
  const result = validateAddressForChain(chain, address);
  if (!result.ok) {
    throw new CodedError(ErrorCodes.INVALID_ADDRESS, `${field}: ${result.reason}`, {
      field,
      chain: chain.id,
      family: chain.family,
    });
  }
}
