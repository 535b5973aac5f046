import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { baseUnitsToAmount } from '@swapgw/chains';
import { loadConfigOrExit } from '@swapgw/runtime';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { ApiKeyRepository } from '../auth/api-key.repository';
import { formatIntegratorFeeDefault, parseIntegratorFeeDefault } from '../auth/integrator-fee-default';
import { IntegratorFeesCollectedRepository } from '../integrator-fees/integrator-fees-collected.repository';
import { gatewayDatabaseOptions, gatewayDataSourceOptions } from '../database/gateway-data-source';
import { prepareDatabase } from '@swapgw/persistence';
import { GatewayCliConfig } from './cli-config';

const USAGE = `Usage (npm run keys -- <command>):
  create --owner <name>   create an API key; the key is printed alone on the last line, once
  list                    list keys: prefix, owner, created, revoked, default integrator fee
  revoke <prefix>         revoke the key with that public prefix (8 characters after sgw_)
  set-fee <prefix> <bps>:<recipient>[,<bps>:<recipient>...]
                          the key's default integrator fee, for POST /quote without integratorFee
                          (EVM or Solana recipients; a quote keeps those of its source chain;
                          at most 5 recipients, 300 bps together)
  clear-fee <prefix>      remove the key's default integrator fee
  fees <owner> [--since <iso date>]
                          integrator fees the owner's swaps paid on chain, summed per chain,
                          token and recipient (in units of the token, and the payments counted)

Revocation and fee changes take effect on every gateway instance within AUTH_CACHE_TTL_MS (default 30 s).`;

class UsageError extends Error {}

async function run(
  args: string[],
  store: ApiKeyRepository,
  fees: IntegratorFeesCollectedRepository,
): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'fees': {
      const owner = rest[0];
      if (!owner || owner.startsWith('--')) throw new UsageError('fees needs <owner>');
      const sinceIndex = rest.indexOf('--since');
      let since: Date | null = null;
      if (sinceIndex >= 0) {
        since = new Date(rest[sinceIndex + 1] ?? '');
        if (Number.isNaN(since.getTime())) throw new UsageError('fees --since needs an ISO date');
      }
      const totals = await fees.totalsOf(owner, since);
      if (totals.length === 0) {
        process.stdout.write(`no integrator fees collected for owner "${owner}"\n`);
        return;
      }
      process.stdout.write(
        'chain           token     recipient                                         amount                    payments\n',
      );
      for (const total of totals) {
        process.stdout.write(
          `${total.chain.padEnd(16)}${total.tokenSymbol.padEnd(10)}${total.recipient.padEnd(50)}${baseUnitsToAmount(total.amount, total.tokenDecimals).padEnd(26)}${total.payments}\n`,
        );
      }
      return;
    }
    case 'create': {
      const ownerIndex = rest.indexOf('--owner');
      const owner = ownerIndex >= 0 ? rest[ownerIndex + 1] : undefined;
      if (!owner) throw new UsageError('create needs --owner <name>');
      const created = await store.create(owner);
      process.stdout.write(`Created API key ${created.prefix} for owner "${owner}". It is shown only now:\n`);
      process.stdout.write(`${created.key}\n`);
      return;
    }
    case 'list': {
      const keys = await store.list();
      if (keys.length === 0) {
        process.stdout.write('no API keys\n');
        return;
      }
      process.stdout.write(
        'prefix    owner                          created                   revoked                   integrator fee\n',
      );
      for (const key of keys) {
        process.stdout.write(
          `${key.prefix.padEnd(10)}${key.owner.padEnd(31)}${key.createdAt.toISOString().padEnd(26)}${(key.revokedAt?.toISOString() ?? '-').padEnd(26)}${formatIntegratorFeeDefault(key.integratorFee)}\n`,
        );
      }
      return;
    }
    case 'set-fee':
    case 'clear-fee': {
      const prefix = rest[0];
      if (!prefix) throw new UsageError(`${command} needs <prefix>`);
      let shares = null;
      if (command === 'set-fee') {
        if (!rest[1]) throw new UsageError('set-fee needs <bps>:<recipient>[,...]');
        try {
          shares = parseIntegratorFeeDefault(rest[1]);
        } catch (error) {
          throw new UsageError(`set-fee: ${(error as Error).message}`);
        }
      }
      if (!(await store.setIntegratorFee(prefix, shares))) {
        process.stderr.write(`no active API key with prefix ${prefix}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${prefix}: default integrator fee ${formatIntegratorFeeDefault(shares)}\n`);
      return;
    }
    case 'revoke': {
      const prefix = rest[0];
      if (!prefix) throw new UsageError('revoke needs <prefix>');
      if (!(await store.revoke(prefix))) {
        process.stderr.write(`no active API key with prefix ${prefix}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`revoked ${prefix}\n`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === '--help' || args[0] === '-h') {
    process.stdout.write(`${USAGE}\n`);
    if (args.length === 0) process.exitCode = 2;
    return;
  }
  const config = loadConfigOrExit(GatewayCliConfig, 'gateway-keys');
  // The keys may be created before the gateway ever started: bring the schema up to date first.
  await prepareDatabase(gatewayDatabaseOptions(config.databaseUrl));
  const dataSource = new DataSource(gatewayDataSourceOptions(config.databaseUrl, [ApiKeyEntity], 1));
  await dataSource.initialize();
  try {
    await run(args, new ApiKeyRepository(dataSource), new IntegratorFeesCollectedRepository(dataSource));
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: Error) => {
  if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`keys: ${error.message}\n`);
  process.exit(1);
});
