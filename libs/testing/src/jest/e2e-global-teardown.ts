import { kafkaAclDenials, kafkaAppUsersFromEnv } from '../kafka-acls';

/**
 * jest globalTeardown of the e2e project: stops what e2e-global-setup.ts started, then fails the run
 * when the broker's ACLs refused an app anything (KAFKA_APP_USERS_FILE: npm test's broker enforces
 * the ACLs of deploy/kafka/users.yaml): an ACL the code needs and the YAML lacks.
 */
export default async function e2eGlobalTeardown(): Promise<void> {
  const stack = globalThis.__SWAPGW_E2E_STACK__;
  globalThis.__SWAPGW_E2E_STACK__ = undefined;
  await stack?.stop();
  await globalThis.__SWAPGW_E2E_OTLP__?.close();
  globalThis.__SWAPGW_E2E_OTLP__ = undefined;
  const appUsers = kafkaAppUsersFromEnv();
  const denials = appUsers ? kafkaAclDenials(appUsers) : [];
  if (denials.length > 0) {
    throw new Error(
      `the broker refused the apps ${denials.length} request(s) their KafkaUsers (deploy/kafka/users.yaml) do not allow; ` +
        `add the ACLs to libs/contracts/src/topics/topic-access.ts and run npm run topics:manifest:\n${[...new Set(denials.map((line) => line.replace(/^\[[^\]]*\] /, '')))].slice(0, 20).join('\n')}`,
    );
  }
}
