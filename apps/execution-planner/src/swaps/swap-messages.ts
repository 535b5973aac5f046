import {
  SIGNING_PREPARE_VERSION,
  SigningCommandTypes,
  SigningPrepareCommand,
  SwapStepPosition,
  Topics,
} from '@swapgw/contracts';
import type { OutboxMessage } from '@swapgw/messaging';
import type { SwapEntity } from './swap.entity';
import type { SwapStepEntity } from './swap-step.entity';

/** The `signing.prepare` command of a step (version 2), as signer-surface expects it: its spec as `step`, the variant named by `family`. */
export function prepareCommandOf(
  swap: SwapEntity,
  step: SwapStepEntity,
): OutboxMessage<SigningPrepareCommand> {
  const payload: SigningPrepareCommand = {
    swapId: swap.id,
    stepId: step.id,
    stepIndex: step.stepIndex,
    stepCount: swap.stepCount,
    kind: step.kind,
    chain: step.chain,
    from: step.signer ?? swap.userAddress,
    step: step.spec,
    ...(step.spec.sponsored ? { owner: swap.owner } : {}),
  };
  return {
    topic: Topics.signingCommands,
    type: SigningCommandTypes.prepare,
    version: SIGNING_PREPARE_VERSION,
    aggregateId: swap.id,
    payload,
  };
}

/** A swap.events message keyed by the swap. */
export function swapEvent<P>(swapId: string, type: string, payload: P): OutboxMessage<P> {
  return { topic: Topics.swapEvents, type, aggregateId: swapId, payload };
}

export const positionOf = (swap: SwapEntity, stepIndex = swap.currentStep): SwapStepPosition => ({
  current: stepIndex,
  total: swap.stepCount,
});

export const stepIdOf = (swapId: string, stepIndex: number): string => `${swapId}:${stepIndex}`;
