// The "other integrators" of the soak: while a burst of swaps runs and for a while after it, cheap
// read requests keep arriving and must keep being answered. Every probe is sent on a fixed
// schedule whether or not the previous one has answered, so a slow gateway is not probed less.
import { api, ApiClient } from '@swapgw/testing';
import { elapsedMs, LatencySummary, summarize } from './stats';

export type ProbePhase = 'during' | 'after';

export interface ProbeTarget {
  name: string;
  send(client: ApiClient, timeoutMs: number): Promise<{ status: number }>;
}

export interface ProbePhaseResult {
  sent: number;
  /** Answers by HTTP status; "timeout" and "network" for requests without an answer. */
  statuses: Record<string, number>;
  /** 502, 503 and 504 answers: the requirement is none, during and after the burst. */
  serverErrors: number;
  latencyMs: LatencySummary;
}

export interface ProbeResult {
  intervalMs: number;
  timeoutMs: number;
  targets: Array<{ name: string; during: ProbePhaseResult; after: ProbePhaseResult }>;
}

interface Sample {
  target: string;
  phase: ProbePhase;
  status: string;
  ms: number;
  /** On the soak's clock, for "errors while partitions move". */
  sentAtMs: number;
}

const SERVER_ERRORS = new Set(['502', '503', '504']);

export class Prober {
  private readonly client: ApiClient;
  private readonly samples: Sample[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers: NodeJS.Timeout[] = [];
  private phase: ProbePhase = 'during';

  constructor(
    gatewayUrl: string,
    apiKey: string,
    private readonly targets: readonly ProbeTarget[],
    private readonly intervalMs: number,
    private readonly timeoutMs: number,
    /** Milliseconds on the soak's clock (since the soak started). */
    private readonly clock: () => number,
  ) {
    this.client = api(gatewayUrl, apiKey);
  }

  start(): void {
    for (const [i, target] of this.targets.entries()) {
      // Staggered so the targets' probes do not always arrive together.
      const offset = Math.round((this.intervalMs / this.targets.length) * i);
      this.timers.push(
        setTimeout(() => {
          this.probe(target);
          this.timers.push(setInterval(() => this.probe(target), this.intervalMs));
        }, offset),
      );
    }
  }

  /** Probes sent from now on count as "after the burst". */
  burstEnded(): void {
    this.phase = 'after';
  }

  /** 5xx answers to probes sent between two times of the soak's clock. */
  serverErrorsBetween(fromMs: number, toMs: number): number {
    return this.samples.filter(
      (s) => s.sentAtMs >= fromMs && s.sentAtMs <= toMs && SERVER_ERRORS.has(s.status),
    ).length;
  }

  /** Stops probing and waits for the answers still out (each bounded by the probe timeout). */
  async stop(): Promise<ProbeResult> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all([...this.inFlight]);
    const phaseResult = (target: string, phase: ProbePhase): ProbePhaseResult => {
      const samples = this.samples.filter((s) => s.target === target && s.phase === phase);
      const statuses: Record<string, number> = {};
      for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
      return {
        sent: samples.length,
        statuses,
        serverErrors: samples.filter((s) => SERVER_ERRORS.has(s.status)).length,
        latencyMs: summarize(samples.map((s) => s.ms)),
      };
    };
    return {
      intervalMs: this.intervalMs,
      timeoutMs: this.timeoutMs,
      targets: this.targets.map((t) => ({
        name: t.name,
        during: phaseResult(t.name, 'during'),
        after: phaseResult(t.name, 'after'),
      })),
    };
  }

  private probe(target: ProbeTarget): void {
    const phase = this.phase;
    const sentAtMs = this.clock();
    const start = process.hrtime.bigint();
    const done = target
      .send(this.client, this.timeoutMs)
      .then(
        (res) => String(res.status),
        (error: Error) =>
          error.name === 'TimeoutError' || error.name === 'AbortError' ? 'timeout' : 'network',
      )
      .then((status) => {
        this.samples.push({ target: target.name, phase, status, ms: elapsedMs(start), sentAtMs });
      });
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
  }
}
