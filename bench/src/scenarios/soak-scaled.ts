// The soak with a second execution-planner and a second signer-surface, started (and ready) before
// the burst, as an operator scales out ahead of a launch. During the burst the second planner is
// stopped (a scale-in or a rolling deploy): Kafka moves its partitions back to the first while
// swaps are in flight, and the errors clients see in that window are counted apart. Throughput is
// compared with the single-instance soak of the same run. (Starting instances inside the burst
// mostly measured their start-up competing with the burst for the two cores.)
import { AppHandle, startApp } from '@swapgw/testing';
import { GroupMovement, GroupWatcher, windowOf } from '../support/consumer-groups';
import { ProcessGroup } from '../support/process-cpu';
import { MetricsTarget, readRpcCounters, RpcReading } from '../support/rpc-requests';
import { BurstCompanion, runSoak, SoakFigures, SoakOptions, SwapEvent } from './soak';

/** Group ids of the scaled apps (SERVICE_NAME of each app module: the group is the service name). */
const SCALED_APPS = [
  { app: 'execution-planner', groupId: 'execution-planner' },
  { app: 'signer-surface', groupId: 'signer-surface' },
] as const;
const INSTANCE_READY_TIMEOUT_MS = 180_000;
/** When, into the burst, the second planner stops and its partitions move. */
const SCALE_IN_AFTER_MS = 10_000;

export interface ScaledInstance {
  instanceId: string;
  /** Soak clock when it answered ready (0: before the burst); undefined when it did not start. */
  readyAtMs?: number;
  /** Soak clock when it was stopped during the burst. */
  stoppedAtMs?: number;
  error?: string;
}

export interface SoakScaledResult extends SoakFigures {
  scenario: 'soak-scaled';
  instances: ScaledInstance[];
  /** Soak clock (ms since the burst started) of the launch and of the partition move. */
  partitionsMoving: {
    launchedAtMs: number;
    fromMs: number;
    toMs?: number;
    groups: GroupMovement['lastSeen'];
  };
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

/** Starts the extra instances before the burst, stops the second planner during it; the rest by `stop()`. */
class ScaleOut implements BurstCompanion {
  readonly handles: AppHandle[] = [];
  readonly instances: ScaledInstance[] = [];
  launchedAtMs = 0;
  private watcher?: GroupWatcher;
  private starting: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SoakScaledOptions) {}

  private scaleInTimer?: NodeJS.Timeout;
  private scaleIn: Promise<void> = Promise.resolve();
  /** RPC counters of the instance stopped during the burst, read just before it stopped. */
  private readonly lastReadings = new Map<string, RpcReading>();

  /** Before the burst: every extra instance started and ready (or failed). */
  async prepare(): Promise<void> {
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
          instance.readyAtMs = 0; // before the burst
        } catch (error) {
          instance.error = (error as Error).message.split('\n')[0];
        }
      }),
    );
    await this.starting;
  }

  begin(clock: () => number): void {
    this.launchedAtMs = clock();
    // Partitions move when the second planner leaves its group.
    this.watcher = new GroupWatcher(this.options.brokers, ['execution-planner'], 1, clock);
    this.watcher.start();
    this.scaleInTimer = setTimeout(() => {
      const planner = this.handles.find((h) => h.app === 'execution-planner');
      if (!planner) return;
      this.launchedAtMs = clock();
      this.scaleIn = readRpcCounters([{ app: planner.instanceId, url: planner.metricsUrl }])
        .then(([reading]) => void this.lastReadings.set(planner.instanceId, reading))
        .then(() => planner.stop())
        .then(() => {
          const instance = this.instances.find((i) => i.instanceId === planner.instanceId);
          if (instance) instance.stoppedAtMs = Math.round(clock());
        });
    }, SCALE_IN_AFTER_MS);
  }

  processGroups(): ProcessGroup[] {
    return this.handles.map((h) => ({
      name: h.instanceId,
      pids: [h.pid()].filter((p): p is number => p !== undefined),
      withDescendants: false,
    }));
  }

  metricsTargets(): MetricsTarget[] {
    return this.handles.map((h) => ({ app: h.instanceId, url: h.metricsUrl }));
  }

  lastRpcReading(app: string): RpcReading | undefined {
    return this.lastReadings.get(app);
  }

  /** Waits until the instances are up (or failed) and the groups settled (bounded by the watcher's stop). */
  async settle(): Promise<GroupMovement> {
    await this.starting;
    await this.scaleIn;
    // Give the group a little time to settle after the last instance became ready.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return (await this.watcher?.stop()) ?? { groupIds: [], lastSeen: {} };
  }

  async stop(): Promise<void> {
    clearTimeout(this.scaleInTimer);
    await this.starting;
    await this.scaleIn;
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
  value !== undefined && baseline !== undefined && baseline > 0
    ? Math.round((value / baseline) * 1000) / 1000
    : undefined;

/** `single`: the single-instance soak of the same run, the baseline of the ratios (when it ran). */
export async function soakScaled(
  options: SoakScaledOptions,
  single?: SoakFigures,
): Promise<SoakScaledResult> {
  const scaleOut = new ScaleOut(options);
  running.add(scaleOut);
  try {
    await scaleOut.prepare();
    const { figures, events, prober } = await runSoak(options, scaleOut);
    const movement = await scaleOut.settle();
    const window = windowOf(movement, scaleOut.launchedAtMs);
    return {
      scenario: 'soak-scaled',
      ...figures,
      instances: scaleOut.instances,
      partitionsMoving: {
        launchedAtMs: Math.round(scaleOut.launchedAtMs),
        fromMs: Math.round(window.fromMs),
        toMs: window.toMs && Math.round(window.toMs),
        groups: movement.lastSeen,
      },
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
