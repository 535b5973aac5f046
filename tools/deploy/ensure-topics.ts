// One-shot topic creation for container deployments (docker-compose `topic-init`): creates every
// topic of libs/contracts on KAFKA_BROKERS before the apps start, so no app races another to do it.
// It is the topics' owner: it creates them whatever KAFKA_MANAGE_TOPICS says (that setting is for
// the apps). TLS and SASL come from the same variables as the apps'.
import 'reflect-metadata';
import { allTopicSpecs } from '@swapgw/contracts';
import { ensureTopics, kafkaSettingsFromEnv } from '@swapgw/messaging';

async function main(): Promise<void> {
  const settings = { ...kafkaSettingsFromEnv('topic-init', process.env), manageTopics: true };
  const specs = allTopicSpecs();
  await ensureTopics(settings, specs);
  process.stdout.write(
    `topics ready on ${settings.brokers.join(',')}: ${specs.map((s) => s.name).join(', ')}\n`,
  );
}

main().catch((error: Error) => {
  process.stderr.write(`topic-init failed: ${error.message}\n`);
  process.exit(1);
});
