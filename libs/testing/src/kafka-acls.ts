import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  AclOperationTypes,
  AclPermissionTypes,
  AclResourceTypes,
  Kafka,
  logLevel,
  ResourcePatternTypes,
} from 'kafkajs';
import { parseAllDocuments } from 'yaml';
import { freePortsBesides } from './free-port';
import { freeConsecutivePorts } from './free-port';
import { KafkaBroker, retryOnPortClash, startKafkaBroker } from './kafka-broker';
import { repoRoot } from './test-env';

// A test broker that authorizes as production does: Kafka's StandardAuthorizer with no access
// where no ACL grants it, each app a SCRAM-SHA-512 user with the ACLs of its KafkaUser in
// deploy/kafka/users.yaml (read from the file itself, which tools/deploy/topic-access.spec.ts
// keeps equal to libs/contracts' topic-access.ts), so that an ACL the code needs and the YAML
// lacks fails a test instead of the first deployment.

/** The Strimzi KafkaUsers the ACL broker creates and authorizes. */
export const USERS_MANIFEST_FILE = path.join(repoRoot, 'deploy', 'kafka', 'users.yaml');
/** Strimzi's `scram-sha-512` authentication, the apps' KAFKA_SASL_MECHANISM. */
export const APP_SASL_MECHANISM = 'SCRAM-SHA-512';
/**
 * The principal of the PLAINTEXT and CONTROLLER listeners, a super user: the broker talks to
 * itself and its controller there, and the test tooling (topic creation, admin, test producers
 * and consumers: KAFKA_BROKERS) too. The apps connect to the SASL_PLAINTEXT listener instead.
 */
export const SUPER_USER = 'User:ANONYMOUS';
/** The variable naming the JSON file of a run's KafkaAppUsers (written by tools/stack/test.mjs). */
export const KAFKA_APP_USERS_FILE_VARIABLE = 'KAFKA_APP_USERS_FILE';

/** One rule of a KafkaUser, one operation: Kafka's own ACL binding. */
export interface KafkaAcl {
  principal: string;
  resourceType: 'topic' | 'group' | 'cluster' | 'transactionalId';
  resourceName: string;
  patternType: 'literal' | 'prefix';
  operation: string;
  permission: 'allow' | 'deny';
  host: string;
}

export interface ManifestKafkaUser {
  /** app.kubernetes.io/name: gateway, quote-service ... */
  app: string;
  /** The KafkaUser's name, which Strimzi makes the SASL user name (User:<name>). */
  username: string;
  acls: KafkaAcl[];
}

/** What the apps need to connect as their users: the SASL listener and each app's credentials. */
export interface KafkaAppUsers {
  /** `127.0.0.1:<port>` of the SASL_PLAINTEXT (SCRAM-SHA-512) listener. */
  brokers: string;
  /** By app name. */
  users: Record<string, { username: string; password: string }>;
  /** The broker's server.log, where its authorizer names every refusal (see kafkaAclDenials). */
  brokerLogFile?: string;
}

interface StrimziAclRule {
  resource: { type: KafkaAcl['resourceType']; name?: string; patternType?: KafkaAcl['patternType'] };
  operations?: string[];
  operation?: string;
  host?: string;
  type?: KafkaAcl['permission'];
}

/**
 * The KafkaUsers of a Strimzi manifest with their ACLs, one binding per operation, as the User
 * Operator applies them (`simple` authorization; host `*` and `allow` unless the rule says).
 */
export function kafkaUsersOfManifest(text: string): ManifestKafkaUser[] {
  const documents = parseAllDocuments(text)
    .map((d) => d.toJSON())
    .filter((d) => d?.kind === 'KafkaUser');
  return documents.map((doc) => {
    const username: string = doc.metadata.name;
    const { authentication, authorization } = doc.spec;
    if (authentication?.type !== 'scram-sha-512' || authorization?.type !== 'simple') {
      throw new Error(
        `KafkaUser ${username}: only scram-sha-512 users with simple authorization are supported`,
      );
    }
    const acls = (authorization.acls as StrimziAclRule[]).flatMap((rule) =>
      (rule.operations ?? [rule.operation as string]).map<KafkaAcl>((operation) => ({
        principal: `User:${username}`,
        resourceType: rule.resource.type,
        // Strimzi's cluster resource has no name; Kafka's is always kafka-cluster.
        resourceName: rule.resource.type === 'cluster' ? 'kafka-cluster' : (rule.resource.name as string),
        patternType: rule.resource.patternType ?? 'literal',
        operation,
        permission: rule.type ?? 'allow',
        host: rule.host ?? '*',
      })),
    );
    return { app: doc.metadata.labels?.['app.kubernetes.io/name'] ?? username, username, acls };
  });
}

export function readManifestKafkaUsers(file = USERS_MANIFEST_FILE): ManifestKafkaUser[] {
  return kafkaUsersOfManifest(fs.readFileSync(file, 'utf8'));
}

/** `IdempotentWrite` → `IDEMPOTENT_WRITE`: Strimzi's spelling to the name of Kafka's enum. */
const enumName = (value: string) => value.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();

/** The member `name` of one of kafkajs' numeric ACL enums. */
function enumValue(values: object, name: string, what: string): number {
  const value = (values as Record<string, unknown>)[name];
  if (typeof value !== 'number') throw new Error(`unknown ACL ${what}: ${name}`);
  return value;
}

/** The binding as kafkajs' CreateAcls wants it. */
export function kafkajsAcl(acl: KafkaAcl) {
  return {
    principal: acl.principal,
    host: acl.host,
    resourceType: enumValue(AclResourceTypes, enumName(acl.resourceType), 'resource type'),
    resourceName: acl.resourceName,
    resourcePatternType:
      acl.patternType === 'prefix' ? ResourcePatternTypes.PREFIXED : ResourcePatternTypes.LITERAL,
    operation: enumValue(AclOperationTypes, enumName(acl.operation), 'operation'),
    permissionType: acl.permission === 'deny' ? AclPermissionTypes.DENY : AclPermissionTypes.ALLOW,
  };
}

export interface AclBrokerPlan {
  /** Broker properties added to the development broker's: the SASL listener and the authorizer. */
  extraConfig: string;
  /** `kafka-storage format --add-scram` arguments: one SCRAM-SHA-512 credential per KafkaUser. */
  scramUsers: string[];
  /** Every binding of every KafkaUser, to create once the broker runs. */
  acls: KafkaAcl[];
  appUsers: KafkaAppUsers;
}

/**
 * How to start a broker that enforces the ACLs of `users`: the PLAINTEXT listener on `port` (and
 * the controller on `controllerPort`) for the broker and the test tooling as super user, a
 * SASL_PLAINTEXT listener on `saslPort` for the apps, a random password per user for this run.
 */
export function aclBrokerPlan(options: {
  port: number;
  controllerPort?: number;
  advertisedPort?: number;
  saslPort: number;
  users?: ManifestKafkaUser[];
}): AclBrokerPlan {
  const { port, saslPort } = options;
  const controllerPort = options.controllerPort ?? port + 1;
  const advertisedPort = options.advertisedPort ?? port;
  const users = options.users ?? readManifestKafkaUsers();
  const credentials = users.map((user) => ({
    ...user,
    // Hex: nothing to escape in the storage tool's `[name=...,password=...]` syntax.
    password: crypto.randomBytes(18).toString('hex'),
  }));
  const extraConfig = [
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort},SASL_PLAINTEXT://127.0.0.1:${saslPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${advertisedPort},SASL_PLAINTEXT://127.0.0.1:${saslPort}`,
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT',
    `listener.name.sasl_plaintext.sasl.enabled.mechanisms=${APP_SASL_MECHANISM}`,
    `listener.name.sasl_plaintext.${APP_SASL_MECHANISM.toLowerCase()}.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
    'authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    // As a Strimzi cluster with `simple` authorization: what no ACL grants is refused.
    'allow.everyone.if.no.acl.found=false',
    `super.users=${SUPER_USER}`,
    '',
  ].join('\n');
  return {
    extraConfig,
    scramUsers: credentials.map(
      (user) => `${APP_SASL_MECHANISM}=[name=${user.username},password=${user.password}]`,
    ),
    acls: users.flatMap((user) => user.acls),
    appUsers: {
      brokers: `127.0.0.1:${saslPort}`,
      users: Object.fromEntries(
        credentials.map((user) => [user.app, { username: user.username, password: user.password }]),
      ),
    },
  };
}

/**
 * Creates `acls` through the super user's listener (`brokers`), then waits until the broker's
 * authorizer lists them all: the controller commits them first and the broker loads them from the
 * metadata log, so an app started right after the call would otherwise race them.
 */
export async function createKafkaAcls(brokers: string, acls: KafkaAcl[]): Promise<void> {
  const kafka = new Kafka({
    clientId: 'swapgw-test-acls',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createAcls({ acl: acls.map(kafkajsAcl) });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { resources } = await admin.describeAcls({
        resourceType: AclResourceTypes.ANY,
        resourcePatternType: ResourcePatternTypes.ANY,
        operation: AclOperationTypes.ANY,
        permissionType: AclPermissionTypes.ANY,
      });
      const listed = resources.reduce((n, resource) => n + resource.acls.length, 0);
      if (listed >= acls.length) return;
      if (Date.now() > deadline)
        throw new Error(`the broker lists ${listed} of the ${acls.length} ACLs created`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await admin.disconnect();
  }
}

/** Writes a run's KafkaAppUsers for the test processes (readable by its owner only: passwords). */
export function writeKafkaAppUsers(file: string, appUsers: KafkaAppUsers): void {
  fs.writeFileSync(file, JSON.stringify(appUsers, null, 2), { mode: 0o600 });
}

/** The KafkaAppUsers of the file KAFKA_APP_USERS_FILE names; undefined when unset (no ACL broker). */
export function kafkaAppUsersFromEnv(
  env: Record<string, string | undefined> = process.env,
): KafkaAppUsers | undefined {
  const file = env[KAFKA_APP_USERS_FILE_VARIABLE];
  return file ? (JSON.parse(fs.readFileSync(file, 'utf8')) as KafkaAppUsers) : undefined;
}

/** The server.log of a broker of tools/kafka started with `dataDir` (tools/kafka/log4j2.yaml). */
export const brokerLogFileOf = (dataDir: string): string => path.join(dataDir, 'logs', 'server.log');

/**
 * The refusals the broker logged for the apps' users (`Principal = User:swapgw-<app> is Denied
 * operation = ... on resource = ...`): each is an ACL an app needed and its KafkaUser lacks, even
 * where the app only logs the failure (a lag sample, a health check) and no test would see it.
 */
export function kafkaAclDenials(appUsers: KafkaAppUsers): string[] {
  if (!appUsers.brokerLogFile || !fs.existsSync(appUsers.brokerLogFile)) return [];
  const principals = Object.values(appUsers.users).map(
    (user) => `Principal = User:${user.username} is Denied`,
  );
  return fs
    .readFileSync(appUsers.brokerLogFile, 'utf8')
    .split('\n')
    .filter((line) => principals.some((principal) => line.includes(principal)));
}

/**
 * The variables that make `app` connect as its own KafkaUser, as it would in production: the SASL
 * listener, SCRAM-SHA-512 and its credentials, and KAFKA_MANAGE_TOPICS=false since its ACLs grant
 * no Create (the topics are the test run's to create). Empty for an app without a user.
 */
export function kafkaAppEnv(app: string, appUsers: KafkaAppUsers | undefined): Record<string, string> {
  const user = appUsers?.users[app];
  if (!appUsers || !user) return {};
  return {
    KAFKA_BROKERS: appUsers.brokers,
    KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
    KAFKA_SASL_MECHANISM: APP_SASL_MECHANISM,
    KAFKA_SASL_USERNAME: user.username,
    KAFKA_SASL_PASSWORD: user.password,
    KAFKA_MANAGE_TOPICS: 'false',
  };
}

export interface AclKafkaBroker {
  /** `brokers` is the super user's PLAINTEXT listener (topic creation, test clients). */
  broker: KafkaBroker;
  appUsers: KafkaAppUsers;
  stop(): Promise<void>;
}

/** A private, fresh broker that enforces the ACLs of deploy/kafka/users.yaml (see aclBrokerPlan). */
export async function startAclKafkaBroker(): Promise<AclKafkaBroker> {
  const { broker, plan } = await retryOnPortClash(async () => {
    const port = await freeConsecutivePorts();
    const [saslPort] = await freePortsBesides(1, [port, port + 1]);
    const plan = aclBrokerPlan({ port, saslPort });
    const broker = await startKafkaBroker({
      port,
      extraConfig: plan.extraConfig,
      scramUsers: plan.scramUsers,
    });
    return { broker, plan };
  });
  try {
    await createKafkaAcls(broker.brokers, plan.acls);
  } catch (error) {
    await broker.stop();
    throw error;
  }
  return {
    broker,
    appUsers: { ...plan.appUsers, brokerLogFile: brokerLogFileOf(broker.dataDir) },
    stop: () => broker.stop(),
  };
}
