import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes } from 'kafkajs';
import {
  aclBrokerPlan,
  kafkaAppEnv,
  kafkajsAcl,
  kafkaUsersOfManifest,
  readManifestKafkaUsers,
} from './kafka-acls';

describe('the KafkaUsers of deploy/kafka/users.yaml, as a test broker creates them', () => {
  const users = readManifestKafkaUsers();
  const byApp = new Map(users.map((user) => [user.app, user]));
  const grants = (app: string, operation: string, resourceName: string) =>
    (byApp.get(app)?.acls ?? []).some(
      (acl) => acl.operation === operation && acl.resourceName === resourceName && acl.permission === 'allow',
    );

  it('has a SCRAM user named after each app’s KafkaUser, with the bindings of its rules', () => {
    expect([...byApp.keys()].sort()).toEqual(
      ['execution-planner', 'gateway', 'limit-order-service', 'quote-service', 'signer-surface'].sort(),
    );
    expect(byApp.get('gateway')?.username).toBe('swapgw-gateway');
    for (const user of users) {
      expect(new Set(user.acls.map((acl) => acl.principal))).toEqual(new Set([`User:${user.username}`]));
    }
    expect(grants('gateway', 'Write', 'swap.commands')).toBe(true);
    expect(grants('quote-service', 'Write', 'swap.commands')).toBe(false);
    expect(grants('quote-service', 'Read', 'quote.requests')).toBe(true);
    expect(grants('quote-service', 'Write', 'quote.requests')).toBe(false);
    const replyGroups = byApp
      .get('gateway')
      ?.acls.filter((acl) => acl.resourceType === 'group' && acl.resourceName === 'gateway.replies.');
    expect(replyGroups?.map((acl) => [acl.patternType, acl.operation]).sort()).toEqual([
      ['prefix', 'Delete'],
      ['prefix', 'Describe'],
      ['prefix', 'Read'],
    ]);
  });

  it('maps Strimzi’s rule forms to Kafka’s bindings: cluster, single operation, host and deny', () => {
    const [user] = kafkaUsersOfManifest(`
apiVersion: kafka.strimzi.io/v1
kind: KafkaUser
metadata:
  name: swapgw-x
  labels: { app.kubernetes.io/name: x }
spec:
  authentication: { type: scram-sha-512 }
  authorization:
    type: simple
    acls:
      - resource: { type: cluster }
        operation: IdempotentWrite
      - resource: { type: transactionalId, name: x-, patternType: prefix }
        operations: [Write]
        host: 10.0.0.1
        type: deny
`);
    expect(user.acls.map(kafkajsAcl)).toEqual([
      {
        principal: 'User:swapgw-x',
        host: '*',
        resourceType: AclResourceTypes.CLUSTER,
        resourceName: 'kafka-cluster',
        resourcePatternType: ResourcePatternTypes.LITERAL,
        operation: AclOperationTypes.IDEMPOTENT_WRITE,
        permissionType: AclPermissionTypes.ALLOW,
      },
      {
        principal: 'User:swapgw-x',
        host: '10.0.0.1',
        resourceType: AclResourceTypes.TRANSACTIONAL_ID,
        resourceName: 'x-',
        resourcePatternType: ResourcePatternTypes.PREFIXED,
        operation: AclOperationTypes.WRITE,
        permissionType: AclPermissionTypes.DENY,
      },
    ]);
  });

  it('refuses a user it could not reproduce (TLS authentication), rather than test without it', () => {
    expect(() =>
      kafkaUsersOfManifest(`
kind: KafkaUser
metadata: { name: swapgw-tls }
spec:
  authentication: { type: tls }
  authorization: { type: simple, acls: [] }
`),
    ).toThrow(/swapgw-tls.*scram-sha-512/);
  });
});

describe('aclBrokerPlan', () => {
  const plan = aclBrokerPlan({ port: 29092, saslPort: 29094 });

  it('adds a SCRAM-SHA-512 listener for the apps and denies what no ACL grants', () => {
    const config = new Map(
      plan.extraConfig
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(config.get('listeners')).toBe(
      'PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093,SASL_PLAINTEXT://127.0.0.1:29094',
    );
    expect(config.get('authorizer.class.name')).toBe(
      'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    );
    expect(config.get('allow.everyone.if.no.acl.found')).toBe('false');
    expect(config.get('listener.name.sasl_plaintext.sasl.enabled.mechanisms')).toBe('SCRAM-SHA-512');
    expect(plan.appUsers.brokers).toBe('127.0.0.1:29094');
  });

  it('gives every user a password of its own, the same one to the storage and to the app', () => {
    const passwords = Object.values(plan.appUsers.users).map((user) => user.password);
    expect(new Set(passwords).size).toBe(passwords.length);
    for (const [app, user] of Object.entries(plan.appUsers.users)) {
      expect(plan.scramUsers).toContain(`SCRAM-SHA-512=[name=${user.username},password=${user.password}]`);
      expect(kafkaAppEnv(app, plan.appUsers)).toEqual({
        KAFKA_BROKERS: '127.0.0.1:29094',
        KAFKA_SECURITY_PROTOCOL: 'SASL_PLAINTEXT',
        KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
        KAFKA_SASL_USERNAME: user.username,
        KAFKA_SASL_PASSWORD: user.password,
        KAFKA_MANAGE_TOPICS: 'false',
      });
    }
    expect(aclBrokerPlan({ port: 29092, saslPort: 29094 }).scramUsers).not.toEqual(plan.scramUsers);
  });

  it('leaves an app without a KafkaUser, or a run without ACLs, as it was', () => {
    expect(kafkaAppEnv('fake-app', plan.appUsers)).toEqual({});
    expect(kafkaAppEnv('gateway', undefined)).toEqual({});
  });
});
