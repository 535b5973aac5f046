// Where `npm test` gets Kafka and PostgreSQL from (tools/stack/test.mjs loads the compiled copy in
// dist/tools/stack/ after the build): containers through testcontainers when a Docker engine is
// reachable and the caller named neither KAFKA_BROKERS nor DATABASE_URL, else the local broker
// (tools/kafka) and the DATABASE_URL server, as before. The devnet is local either way.

export type TestInfrastructure = 'containers' | 'local';

/** The choice, apart from the probing: given variables (non-empty) always win over containers. */
export function chooseTestInfrastructure(
  dockerReachable: boolean,
  env: Record<string, string | undefined>,
): TestInfrastructure {
  const given = (name: string) => (env[name] ?? '') !== '';
  return dockerReachable && !given('KAFKA_BROKERS') && !given('DATABASE_URL') ? 'containers' : 'local';
}

/**
 * True when testcontainers finds a container runtime (DOCKER_HOST, ~/.testcontainers.properties,
 * the usual sockets). Bounded: a DOCKER_HOST that does not answer counts as no engine.
 */
export async function isDockerReachable(timeoutMs = 10_000): Promise<boolean> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([getContainerRuntimeClient().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @testcontainers/kafka drives the Confluent image (its start script is Confluent's); 8.x runs KRaft
 * by default. The local broker is Apache Kafka 4.1; 8.0 is Kafka 4.0, the same protocol for kafkajs.
 */
export const KAFKA_IMAGE = 'confluentinc/cp-kafka:8.0.0';
/** The PostgreSQL of docker-compose.yml and the README's prerequisites. */
export const POSTGRES_IMAGE = 'postgres:15';
/** The plaintext listener @testcontainers/kafka maps to a host port. */
const KAFKA_CLIENT_PORT = 9093;

export interface TestContainers {
  /** `host:port` of the broker, as KAFKA_BROKERS. */
  kafkaBrokers: string;
  /** A superuser URL of the server (its `test` database): `npm test` creates its fresh database there. */
  databaseServerUrl: string;
  stop(): Promise<void>;
}

/** Starts one Kafka broker and one PostgreSQL server as containers, in parallel. */
export async function startTestContainers(): Promise<TestContainers> {
  const [{ KafkaContainer }, { PostgreSqlContainer }] = await Promise.all([
    import('@testcontainers/kafka'),
    import('@testcontainers/postgresql'),
  ]);
  const [kafka, postgres] = await Promise.allSettled([
    new KafkaContainer(KAFKA_IMAGE)
      // As tools/kafka/server.properties.template: topics exist only when ensureTopics creates them.
      .withEnvironment({
        KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
        KAFKA_NUM_PARTITIONS: '3',
        KAFKA_OFFSETS_TOPIC_NUM_PARTITIONS: '10',
      })
      .start(),
    new PostgreSqlContainer(POSTGRES_IMAGE).start(),
  ]);
  const stop = async () => {
    const running = [kafka, postgres].flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    await Promise.allSettled(running.map((container) => container.stop()));
  };
  if (kafka.status === 'rejected' || postgres.status === 'rejected') {
    await stop();
    throw kafka.status === 'rejected' ? kafka.reason : (postgres as PromiseRejectedResult).reason;
  }
  return {
    kafkaBrokers: `${kafka.value.getHost()}:${kafka.value.getMappedPort(KAFKA_CLIENT_PORT)}`,
    databaseServerUrl: postgres.value.getConnectionUri(),
    stop,
  };
}
