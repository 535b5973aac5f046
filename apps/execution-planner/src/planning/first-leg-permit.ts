import { MaxUint256, Signature } from 'ethers';
import { ChainFamily, PermitContracts, permitLegProblem } from '@swapgw/chains';
import { familyHasPermits, LegPermit } from '@swapgw/chains/families';
import { CodedError, ErrorCodes, Permit2Payload, RoutePlan } from '@swapgw/contracts';
import type { StepPlanRequest } from './step-plan-request';

/** A first-leg permit, checked: what the SwapGatewayRouter call carries, plus the token and Permit2. */
export interface FirstLegPermit extends LegPermit {
  token: string;
}

/** What the check reads: the build time, and of chains their family (has it permits?) and permit contracts. */
export interface FirstLegPermitContext {
  nowMs: number;
  familyOf: (chain: string) => ChainFamily;
  permitContractsOf?: (chain: string) => PermitContracts | undefined;
}

/**
 * The permit of the build request for the first leg, checked against the route, or null for plain
 * approvals (`permitType` absent or `approve` without permit fields). Every refusal is 400
 * VALIDATION_FAILED naming the field. Pure: the builder calls it before reading any chain.
 *
 * - eip2612: the user signed the token's EIP-2612 Permit {owner: userAddress, spender: the chain's
 *   SwapGatewayRouter, value: the leg's amountIn (plus the route's integrator fees, which the
 *   router pays out of what it pulls), nonce: the token's nonces(owner), deadline:
 *   floor(permitDeadline / 1000)}.
 * - permit2: the user signed Permit2's PermitTransferFrom {permitted: {token, amount: amountIn},
 *   spender: the SwapGatewayRouter (amount plus the integrator fees, as above), nonce: permit2.nonce, deadline: floor((permit2.deadline ??
 *   permitDeadline) / 1000)}.
 */
export function firstLegPermitOf(
  plan: RoutePlan,
  request: StepPlanRequest,
  context: FirstLegPermitContext,
): FirstLegPermit | null {
  const signatures = [
    request.permitSignature && {
      field: 'permitSignature',
      value: request.permitSignature as Parameters<typeof Signature.from>[0],
    },
    request.permitSignatureCompact && {
      field: 'permitSignatureCompact',
      value: { r: request.permitSignatureCompact.r, yParityAndS: request.permitSignatureCompact.vs },
    },
    request.permit2?.signature && { field: 'permit2.signature', value: request.permit2.signature },
  ].filter((s): s is { field: string; value: Parameters<typeof Signature.from>[0] } => Boolean(s));
  const permitType =
    request.permitType ?? (request.permit2 ? 'permit2' : signatures.length > 0 ? 'eip2612' : 'approve');
  if (permitType === 'approve') return null;
  const leg = plan.legs[0];
  const refuse = (field: string, message: string): never => {
    throw new CodedError(ErrorCodes.VALIDATION_FAILED, message, { field, chain: leg.chain });
  };
  if (!familyHasPermits(context.familyOf(leg.chain)))
    refuse('permitType', `Permits are EVM allowances; ${leg.chain} needs none`);
  if (request.permit2 && permitType !== 'permit2') refuse('permit2', 'permit2 goes with permitType permit2');
  const contracts = context.permitContractsOf?.(leg.chain);
  const problem = permitLegProblem(leg, contracts);
  if (problem !== null || !contracts || leg.tokenIn.address === null)
    return refuse('permitType', problem ?? 'The first leg cannot carry a permit');
  const { permitRouter, permit2 } = contracts;
  const token = leg.tokenIn.address;

  if (signatures.length === 0)
    refuse(
      'permitSignature',
      `permitType ${permitType} needs permitSignature or permitSignatureCompact${permitType === 'permit2' ? ' (or permit2.signature)' : ''}`,
    );
  if (signatures.length > 1)
    refuse(
      signatures[1].field,
      `Send one permit signature, not ${signatures.map((s) => s.field).join(' and ')}`,
    );
  let signature: string;
  try {
    signature = Signature.from(signatures[0].value).serialized;
  } catch (error) {
    return refuse(
      signatures[0].field,
      `${signatures[0].field} is not a valid signature: ${(error as Error).message}`,
    );
  }

  let nonce = 0n;
  let deadlineMs = request.permitDeadline;
  let deadlineField = 'permitDeadline';
  if (permitType === 'permit2') {
    if (!request.permit2)
      refuse('permit2.nonce', 'permitType permit2 needs permit2.nonce (the PermitTransferFrom nonce)');
    const payload = request.permit2 as Permit2Payload;
    nonce = BigInt(payload.nonce);
    if (nonce > MaxUint256) refuse('permit2.nonce', 'permit2.nonce does not fit in a uint256');
    if (payload.deadline !== undefined) {
      if (deadlineMs !== undefined && deadlineMs !== payload.deadline)
        refuse('permit2.deadline', 'permit2.deadline and permitDeadline differ; send one');
      deadlineMs = payload.deadline;
      deadlineField = 'permit2.deadline';
    }
  }
  if (deadlineMs === undefined)
    refuse('permitDeadline', `permitType ${permitType} needs permitDeadline (milliseconds since epoch)`);
  if ((deadlineMs as number) <= context.nowMs) refuse(deadlineField, `${deadlineField} is in the past`);
  return {
    kind: permitType,
    router: permitRouter,
    permit2,
    token,
    nonce,
    deadline: BigInt(Math.floor((deadlineMs as number) / 1000)),
    signature,
  };
}
