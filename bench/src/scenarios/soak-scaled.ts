// The soak with a second execution-planner and a second signer-surface, started the moment the
// burst begins, as an operator scales out when a burst arrives. Kafka then moves partitions from the
// running instances to the new ones while swaps are in flight: the errors clients see in that
// window are counted apart. Throughput is compared with the single-instance soak of the same run.
import { AppHandle, startApp } from '@swapgw/testing';
import { GroupMovement, GroupWatcher, windowOf } from '../support/consumer-groups';
import { ProcessGroup } from '../support/process-cpu';
import { BurstCompanion, runSoak, SoakFigures, SoakOptions, SwapEvent } from './soak';

/** Group ids of the scaled apps (PLANNER_GROUP_ID, SIGNER_GROUP_ID in their app modules). */
const SCALED_APPS = [
  { app: 'execution-planner', groupId: 'execution-planner' },
  { app: 'signer-surface', groupId: 'signer-surface' },
] as const;
const INSTANCE_READY_TIMEOUT_MS = 180_000;

export interface ScaledInstance {
  instanceId: string;
  /** Soak clock when it answered ready; undefined when it did not start. */
  readyAtMs?: number;
  error?: string;
}

export interface SoakScaledResult extends SoakFigures {
  scenario: 'soak-scaled';
  instances: ScaledInstance[];
  /** Soak clock (ms since the burst started) of the launch and of the partition move. */
  partitionsMoving: { launchedAtMs: number; fromMs: number; toMs?: number; groups: GroupMovement['lastSeen'] };
  /** Errors clients saw while partitions moved (swaps ended or refused inside the window, probe 5xx sent in it). */
  errorsWhilePartitionsMove: { buildRefusals: number; swapFailures: number; probeServerErrors: number };
  /** swaps/s of this soak ÷ swaps/s of the single-instance soak of the same run (when it ran). */
  throughputRatio?: number;
  /** Service CPU per ready swap of this soak ÷ that of the single-instance soak. */
  cpuPerSwapRatio?: number;
}

export interface SoakScaledOptions extends SoakOptions {
  brokers: string[];
  instancePrefix: string;
  logLevel: string;
}

/** Starts the extra instances when the burst begins; they are stopped by `stop()`. */
class ScaleOut implements BurstCompanion {
  readonly handles: AppHandle[] = [];
  readonly instances: ScaledInstance[] = [];
  launchedAtMs = 0;
  private watcher?: GroupWatcher;
  private starting: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SoakScaledOptions) {}

  begin(clock: () => number): void {
    this.launchedAtMs = clock();
    this.watcher = new GroupWatcher(this.options.brokers, SCALED_APPS.map((a) => a.groupId), 2, clock);
    this.watcher.start();
    this.starting = Promise.all(
      SCALED_APPS.map(async ({ app }) => {
        const instance: ScaledInstance = { instanceId: `${this.options.instancePrefix}-${app}-2` };
        this.instances.push(instance);
        try {
          const handle = await startApp(app, {
            instance: instance.instanceId,
            env: { LOG_LEVEL: this.options.logLevel },
            readyTimeoutMs: INSTANCE_READY_TIMEOUT_MS,
          });
          this.handles.push(handle);
          instance.readyAtMs = Math.round(clock());
        } catch (error) {
          instance.error = (error as Error).message.split('\n')[0];
        }
      }),
    );
  }

  processGroups(): ProcessGroup[] {
    return this.handles.map((h) => ({ name: h.instanceId, pids: [h.pid()].filter((p): p is number => p !== undefined), withDescendants: false }));
  }

  /** Waits until the instances are up (or failed) and the groups settled (bounded by the watcher's stop). */
  async settle(): Promise<GroupMovement> {
    await this.starting;
    // Give the group a little time to settle after the last instance became ready.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return (await this.watcher?.stop()) ?? { groupIds: [], lastSeen: {} };
  }

  async stop(): Promise<void> {
    await this.starting;
    await Promise.all(this.handles.map((h) => h.stop()));
  }

  /** Synchronous last resort for an interrupted run. */
  killNow(): void {
    for (const h of this.handles) {
      const pid = h.pid();
      if (pid && h.running()) process.kill(pid, 'SIGKILL');
    }
  }
}

const inWindow = (atMs: number | undefined, window: { fromMs: number; toMs?: number }) =>
  atMs !== undefined && atMs >= window.fromMs && atMs <= (window.toMs ?? Number.POSITIVE_INFINITY);

function errorsIn(events: readonly SwapEvent[], window: { fromMs: number; toMs?: number }) {
  return {
    buildRefusals: events.filter((e) => inWindow(e.buildRefusedAtMs, window)).length,
    swapFailures: events.filter((e) => !e.ok && inWindow(e.atMs, window)).length,
  };
}

/** Extra instances still running when the process is told to stop: killed with it. */
const running = new Set<ScaleOut>();
export function killScaledInstances(): void {
  for (const s of running) s.killNow();
}

const ratioOf = (value: number | undefined, baseline: number | undefined) =>
  value !== undefined && baseline !== undefined && baseline > 0 ? Math.round((value / baseline) * 1000) / 1000 : undefined;

/** `single`: the single-instance soak of the same run, the baseline of the ratios (when it ran). */
export async function soakScaled(options: SoakScaledOptions, single?: SoakFigures): Promise<SoakScaledResult> {
  const scaleOut = new ScaleOut(options);
  running.add(scaleOut);
  try {
    const { figures, events, prober } = await runSoak(options, scaleOut);
    const movement = await scaleOut.settle();
    const window = windowOf(movement, scaleOut.launchedAtMs);
    return {
      scenario: 'soak-scaled',
      ...figures,
      instances: scaleOut.instances,
      partitionsMoving: { launchedAtMs: Math.round(scaleOut.launchedAtMs), fromMs: Math.round(window.fromMs), toMs: window.toMs && Math.round(window.toMs), groups: movement.lastSeen },
      errorsWhilePartitionsMove: {
        ...errorsIn(events, window),
        probeServerErrors: prober.serverErrorsBetween(window.fromMs, window.toMs ?? Number.POSITIVE_INFINITY),
      },
      throughputRatio: ratioOf(figures.swapsPerSecond, single?.swapsPerSecond),
      cpuPerSwapRatio: ratioOf(figures.cpuMsPerSwap?.services, single?.cpuMsPerSwap?.services),
    };
  } finally {
    await scaleOut.stop();
    running.delete(scaleOut);
  }
}
