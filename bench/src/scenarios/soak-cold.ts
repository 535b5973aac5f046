// The soak on a cold stack: no warm-up swap, and the burst sent the moment the gateway's
// GET /api/v1/health first answers ok, as clients arrive right after a deploy. run.mjs makes the
// API keys while the infrastructure starts, starts the Kafka services and waits until they are
// ready, then spawns the gateway and this process together: it polls the health until the first ok
// and sends at once (only the readings the figures need before the burst lie in between, and the
// result says how long they took). So soak-cold can only be a run's first scenario.
import { cpuAccountingAvailable, takeCpuSnapshot } from '../support/process-cpu';
import { round } from '../support/stats';
import { runSoak, SoakFigures, SoakOptions } from './soak';

/** How often the health is asked while the gateway starts: the burst lags its first ok by at most this. */
const HEALTH_POLL_MS = 25;

export interface ColdStart {
  /** GET /api/v1/health polls until the first ok, one every HEALTH_POLL_MS. */
  healthPolls: number;
  /** The answers before the ok: "503", "network ECONNREFUSED", "timeout". */
  healthAnswersBefore: Record<string, number>;
  /** From the gateway's spawn (run.mjs) to its first ok; undefined when run.mjs did not say. */
  healthOkAfterSpawnMs?: number;
  /** From the first ok to the burst's first POST /quote: the readings taken before the burst. */
  firstSwapAfterHealthOkMs: number;
  /** Each of those readings (taken at once): the gateway's metrics for its recycles, the processes, the RPC counters. */
  readingsBeforeMs: Record<'recycles' | 'processes' | 'rpc', number>;
}

export interface SoakColdResult extends SoakFigures {
  scenario: 'soak-cold';
  cold: ColdStart;
}

export interface SoakColdStart {
  /** The gateway's GET /api/v1/health. */
  healthUrl: string;
  /** Date.now() when run.mjs spawned the gateway. */
  gatewaySpawnedAtMs?: number;
  /** Give up when the health has not answered ok within this long. */
  timeoutMs: number;
}

/** Polls GET /api/v1/health until it answers 200 with status ok; returns when, and what came before. */
async function firstHealthOk(start: SoakColdStart) {
  const answers: Record<string, number> = {};
  const deadline = Date.now() + start.timeoutMs;
  for (let polls = 1; ; polls++) {
    const sent = Date.now();
    let answer: string;
    try {
      const response = await fetch(start.healthUrl, { signal: AbortSignal.timeout(2000) });
      const body = (await response.json().catch(() => undefined)) as
        { data?: { status?: string }; status?: string } | undefined;
      const status = body?.data?.status ?? body?.status;
      if (response.status === 200 && status === 'ok')
        return { at: process.hrtime.bigint(), atMs: Date.now(), polls, answers };
      answer = `${response.status}${status ? ` ${status}` : ''}`;
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } };
      answer = e.name === 'TimeoutError' ? 'timeout' : `network ${e.cause?.code ?? e.message}`;
    }
    answers[answer] = (answers[answer] ?? 0) + 1;
    if (Date.now() > deadline)
      throw new Error(
        `GET ${start.healthUrl} did not answer ok within ${start.timeoutMs} ms (answers: ${JSON.stringify(answers)})`,
      );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, HEALTH_POLL_MS - (Date.now() - sent))));
  }
}

export async function soakCold(options: SoakOptions, start: SoakColdStart): Promise<SoakColdResult> {
  // The readers' own first-time costs (the PostgreSQL connection of the backends' pids, CLK_TCK)
  // while the gateway starts, not between its first ok and the burst.
  if (cpuAccountingAvailable()) takeCpuSnapshot(await options.processGroups());
  const ok = await firstHealthOk(start);
  const { figures, burstStart, readingsBeforeMs } = await runSoak({ ...options, warmupSwaps: 0 });
  return {
    scenario: 'soak-cold',
    ...figures,
    cold: {
      healthPolls: ok.polls,
      healthAnswersBefore: ok.answers,
      healthOkAfterSpawnMs:
        start.gatewaySpawnedAtMs !== undefined ? Math.round(ok.atMs - start.gatewaySpawnedAtMs) : undefined,
      firstSwapAfterHealthOkMs: round(Number(burstStart - ok.at) / 1e6),
      readingsBeforeMs,
    },
  };
}
