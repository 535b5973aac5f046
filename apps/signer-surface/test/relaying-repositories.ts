import type { Clock } from '@swapgw/runtime';
import type { DataSource } from 'typeorm';
import { SignerChains } from '../src/chains/signer-chains';
import { RelayerPool } from '../src/families/evm/relayer-pool';
import { Relayers, RelayersPolicy } from '../src/families/evm/relayers';
import { FeeAccountLedger } from '../src/sponsorship/fee-account-ledger';
import { RelayerAccountsRepository } from '../src/sponsorship/relayer-accounts.repository';
import { SponsoredTransactionsRepository } from '../src/sponsorship/sponsored-transactions.repository';

/** The sponsorship ledger's repositories on `dataSource`, as the relaying module provides them. */
export function relayingRepositoriesOf(dataSource: DataSource): {
  accounts: RelayerAccountsRepository;
  transactions: SponsoredTransactionsRepository;
  feeAccounts: FeeAccountLedger;
} {
  const accounts = new RelayerAccountsRepository(dataSource);
  const transactions = new SponsoredTransactionsRepository(dataSource);
  return { accounts, transactions, feeAccounts: new FeeAccountLedger(accounts, transactions) };
}

/** Relayers over the ledger on `dataSource`. */
export function relayersOn(
  dataSource: DataSource,
  chains: SignerChains,
  pool: RelayerPool,
  policy: RelayersPolicy,
  clock: Clock,
): Relayers {
  const { accounts, transactions } = relayingRepositoriesOf(dataSource);
  return new Relayers(dataSource, accounts, transactions, chains, pool, policy, clock);
}
