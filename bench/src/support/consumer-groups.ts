// When partitions move: a second instance joining a consumer group makes Kafka take the group's
// partitions away from the first instance and hand part of them to the new one. The soak-scaled
// scenario counts the errors clients see inside that window, read here from the broker.
import { Kafka, logLevel } from 'kafkajs';

export interface GroupMovement {
  groupIds: string[];
  /** Soak clock (ms) of the first sight of a group rebalancing; undefined if never caught between polls. */
  firstRebalancingMs?: number;
  /** Soak clock (ms) when every group was Stable with the expected members; undefined if never. */
  stableMs?: number;
  /** Last state and member count seen per group. */
  lastSeen: Record<string, { state: string; members: number }>;
}

const POLL_MS = 250;

/**
 * Polls the groups until each is Stable with `expectedMembers` members (or `stop()`). Start it
 * before the new instances: the rebalance they cause can be shorter than a poll, so the window's
 * start falls back to the moment they were launched (see `windowOf`).
 */
export class GroupWatcher {
  private readonly kafka: Kafka;
  private readonly movement: GroupMovement;
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    brokers: string[],
    groupIds: string[],
    private readonly expectedMembers: number,
    private readonly clock: () => number,
  ) {
    this.kafka = new Kafka({ clientId: 'bench-group-watcher', brokers, logLevel: logLevel.NOTHING });
    this.movement = { groupIds, lastSeen: {} };
  }

  start(): void {
    this.loop = this.watch();
  }

  async stop(): Promise<GroupMovement> {
    this.stopped = true;
    await this.loop;
    return this.movement;
  }

  private async watch(): Promise<void> {
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      while (!this.stopped && this.movement.stableMs === undefined) {
        try {
          const { groups } = await admin.describeGroups(this.movement.groupIds);
          const now = this.clock();
          for (const g of groups)
            this.movement.lastSeen[g.groupId] = { state: g.state, members: g.members.length };
          if (groups.some((g) => g.state !== 'Stable')) this.movement.firstRebalancingMs ??= now;
          if (groups.every((g) => g.state === 'Stable' && g.members.length === this.expectedMembers))
            this.movement.stableMs = now;
        } catch {
          // a broker busy with the burst: try again at the next poll
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch {
      // no admin connection: the movement stays unknown, the report says so
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }
}

/** The window in which partitions moved, on the soak clock; falls back to the launch for its start. */
export function windowOf(movement: GroupMovement, launchedAtMs: number): { fromMs: number; toMs?: number } {
  return { fromMs: movement.firstRebalancingMs ?? launchedAtMs, toMs: movement.stableMs };
}
