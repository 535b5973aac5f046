import { waitFor } from '@swapgw/testing';
import {
  RECORDED_BEFORE_FAMILY,
  RECORDED_WITH_FAMILY,
  RecordedCommand,
  recordedStepOf,
} from '../../test/recorded-signing-commands';
import { registryOf } from '../../test/signer-test-chain';
import { SignerTestService, startSignerTestService } from '../../test/signer-test-service';

// Real Kafka and PostgreSQL: the recorded version-1 signing.prepare commands published on
// signing.commands as the planner wrote them, consumed by the running signer-surface. No chain is
// configured, so each step is stored and answered signing.unavailable: what shows it was read.

let service: SignerTestService;

beforeAll(async () => {
  service = await startSignerTestService(registryOf([]));
}, 90_000);

afterAll(async () => {
  await service?.close();
});

/** A recorded command under swap ids of its own: the signer prepares a step once per (swapId, stepId). */
const underOwnSwap = (recorded: RecordedCommand, suffix: string): RecordedCommand => {
  const swapId = `${String(recorded.envelope.payload.swapId)}-${suffix}`;
  const payload = { ...recorded.envelope.payload, swapId, stepId: `${swapId}:1` };
  return { ...recorded, envelope: { ...recorded.envelope, aggregateId: swapId, payload } };
};

async function storedSpecsOf(swapIds: string[]): Promise<Map<string, unknown>> {
  const rows: { swap_id: string; spec: unknown }[] = await service.dataSource.query(
    `SELECT "swap_id", "spec" FROM "${service.schema}"."signing_requests" WHERE "swap_id" = ANY($1)`,
    [swapIds],
  );
  return new Map(rows.map((row) => [row.swap_id, row.spec]));
}

describe('recorded version-1 signing.prepare commands through the running consumer', () => {
  it.each([
    ['naming their family', 'with-family', RECORDED_WITH_FAMILY],
    ['sent before `family` existed', 'before-family', RECORDED_BEFORE_FAMILY],
  ])('reads every one %s, storing the step each described', async (_as, suffix, recorded) => {
    const commands = recorded.map((command) => underOwnSwap(command, suffix));
    for (const { envelope } of commands)
      await service.sendCommand(envelope.type, envelope.aggregateId, envelope.payload);
    const swapIds = commands.map(({ envelope }) => envelope.aggregateId);

    // Each one answered: none parked on the dead-letter topic for a payload it refused.
    await waitFor(
      () => {
        const unavailable = new Set(
          service.events.filter((e) => e.type === 'signing.unavailable').map((e) => e.aggregateId),
        );
        return swapIds.every((swapId) => unavailable.has(swapId));
      },
      { timeoutMs: 30_000, description: `signing.unavailable for the ${swapIds.length} recorded commands` },
    );

    const specs = await storedSpecsOf(swapIds);
    // The step each command describes, read off the recorded command that names its family.
    expect(swapIds.map((swapId) => specs.get(swapId))).toEqual(RECORDED_WITH_FAMILY.map(recordedStepOf));
  });
});
