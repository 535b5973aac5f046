import { EvmTypedDataSigningPayload, SponsoredIntentSpec, SponsoredStepSpec } from '@swapgw/contracts';
import {
  acrossIntentTypedData,
  acrossSwapIntentTypedData,
  bridgeIntentTypedData,
  bridgeSwapIntentTypedData,
  bridgeToIntentTypedData,
  eip2612PermitTypedData,
  evmIntegratorFeeGas,
  Permit2IntentPermit,
  randomPermit2Nonce,
  readErc20Allowance,
  readEvmBalance,
  readPermitNonce,
  SPONSORED_EVM_GAS,
  swapIntentTypedData,
  swapV3IntentTypedData,
  TypedDataV4,
} from '@swapgw/chains';
import { JsonRpcProvider } from 'ethers';
import { SponsoredStepNotSignable } from '../../../signing/payload-kinds/sponsored-issue';

/**
 * Typed data is signed by a person in a wallet, then relayed: an EIP-2612 permit stays valid this
 * long past the payload's own expiry, so a signature submitted in the last second still lands.
 */
const PERMIT_DEADLINE_MARGIN_SECONDS = 600;

export interface TypedDataIssue {
  payload: EvmTypedDataSigningPayload;
  /** What the user sees about gas: nothing to pay; the relayer's estimate in wei. */
  executionHints: Record<string, string>;
}

/**
 * The typed data of a sponsored step, from chain state read now:
 *  - eip2612-permit: the token's Permit for Permit2 with the owner's current `nonces(owner)`;
 *  - permit2-intent: a Permit2 PermitWitnessTransferFrom with a fresh unordered nonce, once the
 *    wallet holds `amount` and Permit2 may move it (else SponsoredStepNotSignable: nothing could
 *    execute it).
 */
export async function issueTypedData(
  provider: JsonRpcProvider,
  chainId: bigint,
  from: string,
  sponsored: SponsoredStepSpec,
  expiresAtMs: number,
): Promise<TypedDataV4> {
  if (sponsored.mode === 'eip2612-permit') {
    const permit = sponsored.permit!;
    const nonce = await readPermitNonce(provider, permit.token, from);
    return eip2612PermitTypedData({
      chainId: Number(chainId),
      token: permit.token,
      tokenName: permit.tokenName,
      version: permit.version,
      owner: from,
      spender: permit.spender,
      value: permit.value,
      nonce,
      deadline: Math.floor(expiresAtMs / 1000) + PERMIT_DEADLINE_MARGIN_SECONDS,
    });
  }
  if (sponsored.mode !== 'permit2-intent') throw new Error(`A ${sponsored.mode} step has no typed data`);
  const intent = sponsored.intent!;
  const amount = BigInt(intent.amount);
  const [balance, allowance] = await Promise.all([
    readEvmBalance(provider, intent.token, from),
    readErc20Allowance(provider, intent.token, from, intent.permit2),
  ]);
  if (balance < amount)
    throw new SponsoredStepNotSignable(`the wallet holds ${balance} of the ${amount} the step moves`);
  if (allowance < amount)
    throw new SponsoredStepNotSignable(
      `Permit2 may move ${allowance} of the ${amount} the step moves (allowance to ${intent.permit2})`,
    );
  return intentTypedData(Number(chainId), intent, randomPermit2Nonce());
}

/** The Permit2 witness typed data of an intent, with `nonce`. */
export function intentTypedData(chainId: number, intent: SponsoredIntentSpec, nonce: bigint): TypedDataV4 {
  const permit: Permit2IntentPermit = {
    chainId,
    permit2: intent.permit2,
    router: intent.router,
    token: intent.token,
    amount: intent.amount,
    nonce,
    deadline: intent.deadline,
  };
  switch (intent.kind) {
    case 'swap':
      return swapIntentTypedData({
        ...permit,
        intent: {
          venue: intent.venue,
          path: intent.path!,
          amountOutMin: intent.amountOutMin!,
          recipient: intent.recipient,
          unwrapNative: Boolean(intent.unwrapNative),
          deadline: intent.deadline,
          integratorFees: intent.integratorFees,
        },
      });
    case 'swap-v3':
      return swapV3IntentTypedData({
        ...permit,
        intent: {
          venue: intent.venue,
          path: intent.path!,
          fees: intent.poolFees!,
          amountOutMin: intent.amountOutMin!,
          recipient: intent.recipient,
          unwrapNative: Boolean(intent.unwrapNative),
          deadline: intent.deadline,
          integratorFees: intent.integratorFees,
        },
      });
    case 'bridge':
      return bridgeIntentTypedData({
        ...permit,
        intent: {
          venue: intent.venue,
          destinationChainId: intent.destinationChainId!,
          recipient: intent.recipient,
          deadline: intent.deadline,
          integratorFees: intent.integratorFees,
        },
      });
    case 'bridge-to':
      return bridgeToIntentTypedData({
        ...permit,
        intent: {
          venue: intent.venue,
          destinationChainId: intent.destinationChainId!,
          recipient: intent.recipient,
          deadline: intent.deadline,
          integratorFees: intent.integratorFees,
        },
      });
    case 'bridge-swap':
      return bridgeSwapIntentTypedData({
        ...permit,
        intent: {
          venue: intent.venue,
          destinationChainId: intent.destinationChainId!,
          destinationRouter: intent.destinationRouter!,
          destinationVenue: intent.destinationVenue!,
          path: intent.path!,
          amountOutMin: intent.amountOutMin!,
          recipient: intent.recipient,
          unwrapNative: Boolean(intent.unwrapNative),
          deadline: intent.deadline,
          integratorFees: intent.integratorFees,
        },
      });
    case 'across':
      return acrossIntentTypedData({
        ...permit,
        intent: {
          venue: intent.venue,
          destinationChainId: intent.destinationChainId!,
          ...intent.across!,
          recipient: intent.recipient,
          deadline: intent.deadline,
          integratorFees: intent.integratorFees,
        },
      });
    case 'across-swap':
      return acrossSwapIntentTypedData({
        ...permit,
        intent: {
          venue: intent.venue,
          destinationChainId: intent.destinationChainId!,
          ...intent.across!,
          destinationRouter: intent.destinationRouter!,
          destinationVenue: intent.destinationVenue!,
          path: intent.path!,
          fees: intent.poolFees!,
          amountOutMin: intent.amountOutMin!,
          recipient: intent.recipient,
          unwrapNative: Boolean(intent.unwrapNative),
          deadline: intent.deadline,
          integratorFees: intent.integratorFees,
        },
      });
  }
}

/**
 * The gas a relayer is expected to spend on a typed-data step (the quotes' table), for the budget
 * check and the hints: the router call, plus an ERC-20 transfer and its event per integrator fee
 * recipient the intent pays. A bridge-swap is the source chain's deposit with its message; the
 * release and swap on the destination are the bridge relayer's (Across: the filler's).
 */
export function sponsoredGasOf(sponsored: SponsoredStepSpec): bigint {
  if (sponsored.mode === 'eip2612-permit') return SPONSORED_EVM_GAS.permit;
  const fees = evmIntegratorFeeGas(sponsored.intent?.integratorFees?.length ?? 0, false);
  return routerCallGasOf(sponsored.intent?.kind) + fees;
}

/** The gas of the router call of an intent of `kind`, without its integrator fees. */
function routerCallGasOf(kind: SponsoredIntentSpec['kind'] | undefined): bigint {
  switch (kind) {
    case 'swap':
      return SPONSORED_EVM_GAS.swapIntent;
    case 'swap-v3':
      return SPONSORED_EVM_GAS.swapV3Intent;
    case 'bridge-swap':
      return SPONSORED_EVM_GAS.bridgeSwapIntent;
    case 'across':
      return SPONSORED_EVM_GAS.acrossIntent;
    case 'across-swap':
      return SPONSORED_EVM_GAS.acrossSwapIntent;
    default:
      return SPONSORED_EVM_GAS.bridgeIntent;
  }
}
