import { Kafka } from 'kafkajs';
import { kafkaClientConfig, KafkaSettings } from './kafka-settings';

export interface KafkaHealth {
  ok: boolean;
  brokers?: number;
  error?: string;
}

/** Asks the cluster to describe itself within `timeoutMs`: for the gateway's /health. */
export async function kafkaHealth(settings: KafkaSettings, timeoutMs = 2000): Promise<KafkaHealth> {
  const kafka = new Kafka(
    kafkaClientConfig(
      { ...settings, clientId: `${settings.clientId}-health` },
      { connectionTimeout: timeoutMs, requestTimeout: timeoutMs, retry: { retries: 0 } },
    ),
  );
  const admin = kafka.admin();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const cluster = await Promise.race([admin.connect().then(() => admin.describeCluster()), timeout]);
    return { ok: true, brokers: cluster.brokers.length };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
    admin.disconnect().catch(() => undefined);
  }
}
