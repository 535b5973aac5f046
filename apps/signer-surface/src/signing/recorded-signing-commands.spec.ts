import { KafkaContext } from '@nestjs/microservices';
import {
  IdempotentConsumer,
  parseEnvelope,
  parsePayload,
  RequestResponder,
  StreamHandlers,
} from '@swapgw/messaging';
import { ManualClock } from '@swapgw/runtime';
import { EntityManager } from 'typeorm';
import {
  RECORDED_BEFORE_FAMILY,
  RECORDED_WITH_FAMILY,
  RecordedCommand,
  recordedStepOf,
} from '../../test/recorded-signing-commands';
import { SignerChains } from '../chains/signer-chains';
import { TransactionStatusService } from '../status/transaction-status.service';
import { SigningEventsOutbox } from './signing-events.outbox';
import { SigningPayloadIssuer } from './signing-payload.issuer';
import { SigningPreparationService, WaitingPolicy } from './signing-preparation.service';
import { SigningRequestEntity } from './signing-request.entity';
import { SigningRequestsRepository } from './signing-requests.repository';
import { SigningSubmissionService } from './signing-submission.service';
import { SigningController } from './signing.controller';

/** A transaction's manager as far as preparing a step uses it before it is saved: it creates the row. */
const entityCreatingManager = {
  create: (entity: new () => object, fields: object) => Object.assign(new entity(), fields),
} as unknown as EntityManager;

/**
 * The idempotent consumer's own pipeline without its transaction: the envelope checked, the
 * handler of its type found, the payload validated against the handler's class (parsePayload,
 * unknown fields stripped), then handled. What it parks is kept to be looked at.
 */
class ValidatingConsumer {
  readonly parked: string[] = [];

  async consume(message: unknown, _ctx: KafkaContext, handlers: StreamHandlers): Promise<void> {
    const parsed = parseEnvelope(message);
    if (!parsed.ok) return void this.parked.push(parsed.reason);
    const handler = handlers[parsed.envelope.type];
    if (!handler || 'ignore' in handler)
      return void this.parked.push(`no handler for ${parsed.envelope.type}`);
    const payload = parsePayload(parsed.envelope, handler.payload);
    if (!payload.ok) return void this.parked.push(`${payload.reason}: ${JSON.stringify(payload.problems)}`);
    await handler.handle(payload.envelope.payload, payload.envelope, entityCreatingManager);
  }
}

/** A message as the consumer gets it: parsed from its JSON (a copy, made in this realm). */
const asReadFromKafka = <T>(message: T): T => JSON.parse(JSON.stringify(message)) as T;

/**
 * The real controller and preparation service, on chains the signer does not sign on: each step
 * is stored as a signing request and answered `signing.unavailable`, which is where its spec shows.
 */
function signerOnNoChain() {
  const consumer = new ValidatingConsumer();
  const stored: SigningRequestEntity[] = [];
  const preparation = new SigningPreparationService(
    { signing: () => ({ ok: false, reason: 'no chain in this spec' }) } as unknown as SignerChains,
    {
      markUnavailable: async (row: SigningRequestEntity) => {
        stored.push(row);
        return row;
      },
    } as unknown as SigningPayloadIssuer,
    {} as SigningEventsOutbox,
    { liveRequestOfStep: async () => null } as unknown as SigningRequestsRepository,
    {} as WaitingPolicy,
    new ManualClock(0),
  );
  const controller = new SigningController(
    consumer as unknown as IdempotentConsumer,
    {} as RequestResponder,
    preparation,
    {} as SigningSubmissionService,
    {} as TransactionStatusService,
  );
  const replay = async (recorded: readonly RecordedCommand[]) => {
    for (const { envelope } of recorded)
      await controller.onSigningCommand(asReadFromKafka(envelope), {} as KafkaContext);
  };
  return { consumer, stored, replay };
}

/** A stored request as a user of the signer sees it: which step, signed by whom, what it signs. */
const requestOf = (row: SigningRequestEntity) => ({
  swapId: row.swapId,
  stepId: row.stepId,
  kind: row.kind,
  chain: row.chain,
  from: row.from,
  owner: row.owner,
  spec: JSON.parse(JSON.stringify(row.spec)) as unknown,
});

/** The request a recorded command that names its family asks for, read off the command itself. */
const expectedRequestOf = (recorded: RecordedCommand) => {
  const { swapId, stepId, kind, chain, from, owner } = recorded.envelope.payload;
  return { swapId, stepId, kind, chain, from, owner: owner ?? null, spec: recordedStepOf(recorded) };
};

describe('signing.prepare commands of version 1, replayed through the controller', () => {
  it('covers every family, kind of Solana step, sponsorship mode and kind of intent the planner makes', () => {
    const steps = RECORDED_WITH_FAMILY.map(recordedStepOf) as {
      family: string;
      solana?: { kind: string };
      sponsored?: { mode: string; intent?: { kind: string } };
    }[];
    const seen = new Set(
      steps.flatMap((s) => [s.family, s.solana?.kind, s.sponsored?.mode, s.sponsored?.intent?.kind]),
    );
    expect(
      [
        ...['evm-transaction', 'evm-typed-data', 'solana-transaction', 'bitcoin-psbt'],
        ...['bridge-deposit', 'prebuilt-transaction'],
        ...[
          'covered-transaction',
          'eip2612-permit',
          'permit2-intent',
          'solana-fee-payer',
          'bitcoin-fee-wallet',
        ],
        ...['swap', 'bridge', 'bridge-to', 'bridge-swap', 'across', 'across-swap'],
      ].filter((kind) => !seen.has(kind)),
    ).toEqual([]);
  });

  it('stores each recorded command naming its family as the step it described, none refused', async () => {
    const signer = signerOnNoChain();
    await signer.replay(RECORDED_WITH_FAMILY);
    expect(signer.consumer.parked).toEqual([]);
    expect(signer.stored.map(requestOf)).toEqual(RECORDED_WITH_FAMILY.map(expectedRequestOf));
  });

  it('stores each recorded command sent before `family` existed as the same step', async () => {
    const signer = signerOnNoChain();
    await signer.replay(RECORDED_BEFORE_FAMILY);
    expect(signer.consumer.parked).toEqual([]);
    expect(signer.stored.map(requestOf)).toEqual(
      RECORDED_WITH_FAMILY.map((recorded) => ({
        ...expectedRequestOf(recorded),
        swapId: recorded.envelope.payload.swapId,
      })),
    );
  });

  it('validates the upcast step as version 2 is: a recorded command with a broken step is refused, naming the field', async () => {
    const signer = signerOnNoChain();
    const bitcoinDeposit = RECORDED_WITH_FAMILY.find((recorded) => recorded.envelope.payload.bitcoin)!;
    const broken = asReadFromKafka(bitcoinDeposit);
    (broken.envelope.payload.bitcoin as { vault: string }).vault = 'not-a-vault';
    await signer.replay([broken]);
    expect(signer.stored).toEqual([]);
    expect(signer.consumer.parked).toEqual([expect.stringContaining('payload.step.bitcoin.vault')]);
  });

  it('reads a version-2 command, the step as `step`, the same way', async () => {
    const signer = signerOnNoChain();
    const v2 = RECORDED_WITH_FAMILY.map((recorded) => {
      const { swapId, stepId, stepIndex, stepCount, kind, chain, from, owner } = recorded.envelope.payload;
      const payload = {
        swapId,
        stepId,
        stepIndex,
        stepCount,
        kind,
        chain,
        from,
        owner,
        step: recordedStepOf(recorded),
      };
      return { ...recorded, envelope: { ...recorded.envelope, version: 2, payload } };
    });
    await signer.replay(v2);
    expect(signer.consumer.parked).toEqual([]);
    expect(signer.stored.map(requestOf)).toEqual(RECORDED_WITH_FAMILY.map(expectedRequestOf));
  });
});
