import { Admin, Kafka } from 'kafkajs';
import { kafkaClientConfig, KafkaSettings } from './kafka-settings';
import { KafkaSecuritySettingError, kafkaSecurityFailure } from './kafka-security';

export interface KafkaHealth {
  ok: boolean;
  brokers?: number;
  error?: string;
}

function timeoutAfter(timeoutMs: number): { promise: Promise<never>; clear: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return { promise, clear: () => clearTimeout(timer) };
}

function healthAdmin(settings: KafkaSettings, timeoutMs: number): Admin {
  return new Kafka(
    kafkaClientConfig(
      { ...settings, clientId: `${settings.clientId}-health` },
      { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, retry: { retries: 0 } },
    ),
  ).admin();
}

/** Asks the cluster to describe itself within `timeoutMs` on a connection of its own (one-off checks). */
export async function kafkaHealth(settings: KafkaSettings, timeoutMs = 2000): Promise<KafkaHealth> {
  const admin = healthAdmin(settings, timeoutMs);
  const timeout = timeoutAfter(timeoutMs);
  try {
    const cluster = await Promise.race([
      admin.connect().then(() => admin.describeCluster()),
      timeout.promise,
    ]);
    return { ok: true, brokers: cluster.brokers.length };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    timeout.clear();
    admin.disconnect().catch(() => undefined);
  }
}

/** The admin client a probe keeps open, and its connect() (every check waits for it). */
interface HealthConnection {
  admin: Admin;
  connected: Promise<void>;
}

/**
 * The gateway's GET /health check of Kafka: one admin connection kept open and reused by every
 * call (a public endpoint must not open a connection per request), calls that arrive while one is
 * in flight share its answer, and a failed check drops the connection so the next one reconnects.
 */
export class KafkaHealthProbe {
  private connection: HealthConnection | null = null;
  private inFlight: Promise<KafkaHealth> | null = null;

  constructor(
    private readonly settings: KafkaSettings,
    private readonly timeoutMs = 2000,
  ) {}

  check(): Promise<KafkaHealth> {
    this.inFlight ??= this.describe().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    await connection?.admin.disconnect().catch(() => undefined);
  }

  private connect(): HealthConnection {
    const admin = healthAdmin(this.settings, this.timeoutMs);
    this.connection = { admin, connected: admin.connect() };
    return this.connection;
  }

  private async describe(): Promise<KafkaHealth> {
    const timeout = timeoutAfter(this.timeoutMs);
    try {
      const { admin, connected } = this.connection ?? this.connect();
      // A metadata request, on the connection already open (the bootstrap broker's): a round trip
      // every call, so a broker that went away or a network that holds every byte is seen as down.
      // (describeCluster would answer from cached metadata without asking anything.)
      await Promise.race([connected.then(() => admin.listTopics()), timeout.promise]);
      return { ok: true };
    } catch (error) {
      await this.close();
      return { ok: false, error: (error as Error).message };
    } finally {
      timeout.clear();
    }
  }
}

/**
 * At start, before anything waits for Kafka: connects once (no retry) and throws a
 * KafkaSecuritySettingError naming the setting to fix when the cluster refused our SASL login or
 * our certificate, or when its certificate is not trusted. A cluster that is merely away is not an
 * error here (the caller's own retries wait for it). Nothing to check for PLAINTEXT.
 */
export async function checkKafkaSecurity(settings: KafkaSettings, timeoutMs = 10_000): Promise<void> {
  const security = settings.security;
  if (!security || security.protocol === 'PLAINTEXT') return;
  const admin = new Kafka(
    kafkaClientConfig(
      { ...settings, clientId: `${settings.clientId}-security-check` },
      { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, retry: { retries: 0 } },
    ),
  ).admin();
  const timeout = timeoutAfter(timeoutMs);
  try {
    await Promise.race([admin.connect().then(() => admin.describeCluster()), timeout.promise]);
  } catch (error) {
    const failure = kafkaSecurityFailure(error, security);
    if (failure) throw new KafkaSecuritySettingError(failure);
  } finally {
    timeout.clear();
    await admin.disconnect().catch(() => undefined);
  }
}
