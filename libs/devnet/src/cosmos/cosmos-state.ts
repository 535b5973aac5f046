import { CosmosTxError } from './cosmos-errors';

export interface Coin {
  denom: string;
  amount: bigint;
}

/** x/auth's BaseAccount. The pubkey is recorded by the account's first transaction. */
export interface CosmosAccount {
  address: string;
  accountNumber: bigint;
  sequence: bigint;
  pubKey?: Uint8Array;
}

/** x/feegrant's allowances the devnet knows. */
export type FeeAllowance =
  | { kind: 'basic'; spendLimit: Coin[]; expiration?: Date }
  | {
      kind: 'periodic';
      basic: { spendLimit: Coin[]; expiration?: Date };
      periodSeconds: bigint;
      periodSpendLimit: Coin[];
      periodCanSpend: Coin[];
      periodReset: Date;
    };

/**
 * x/bank's SendRestriction as a module installs one: told of every credit (`from` the sender, or
 * undefined for a mint), it may write its own store entries on the same state (x/forwarding marks
 * the accounts to forward at the end of the block).
 */
export type CreditObserver = (state: CosmosState, from: string | undefined, to: string) => void;

/**
 * The application state of a Cosmos chain: x/auth accounts, x/bank balances, x/feegrant allowances.
 * `branch()` is the SDK's CacheMultiStore: a copy written to and kept (`replaceWith`) or dropped, how
 * CheckTx runs on its own state and how a failed message's writes are undone.
 */
export class CosmosState {
  private nextAccountNumber = 0n;
  private creditObserver: CreditObserver | undefined;

  private constructor(
    private readonly accounts: Map<string, CosmosAccount>,
    private readonly balances: Map<string, Map<string, bigint>>,
    private readonly allowances: Map<string, FeeAllowance>,
    /** Other modules' stores (IBC channels and packets, …): string keys to string values. */
    private readonly store: Map<string, string>,
  ) {}

  static empty(): CosmosState {
    return new CosmosState(new Map(), new Map(), new Map(), new Map());
  }

  branch(): CosmosState {
    const copy = new CosmosState(
      new Map([...this.accounts].map(([k, a]) => [k, { ...a }])),
      new Map([...this.balances].map(([k, b]) => [k, new Map(b)])),
      new Map([...this.allowances].map(([k, a]) => [k, structuredClone(a)])),
      new Map(this.store),
    );
    copy.nextAccountNumber = this.nextAccountNumber;
    copy.creditObserver = this.creditObserver;
    return copy;
  }

  /** Commits a branch: this state becomes the branch's. */
  replaceWith(branch: CosmosState): void {
    for (const key of ['accounts', 'balances', 'allowances', 'store'] as const) {
      this[key].clear();
      for (const [k, v] of branch[key] as Map<string, never>) (this[key] as Map<string, never>).set(k, v);
    }
    this.nextAccountNumber = branch.nextAccountNumber;
  }

  /** Installs the chain's send restriction (kept by every branch of this state). */
  observeCredits(observer: CreditObserver): void {
    this.creditObserver = observer;
  }

  account(address: string): CosmosAccount | undefined {
    return this.accounts.get(address);
  }

  /** The account, created with the next account number when first seen (x/auth on a receive). */
  ensureAccount(address: string): CosmosAccount {
    let account = this.accounts.get(address);
    if (!account) {
      account = { address, accountNumber: this.nextAccountNumber++, sequence: 0n };
      this.accounts.set(address, account);
    }
    return account;
  }

  balance(address: string, denom: string): bigint {
    return this.balances.get(address)?.get(denom) ?? 0n;
  }

  /** Non-zero balances, sorted by denom (as x/bank lists them). */
  allBalances(address: string): Coin[] {
    return [...(this.balances.get(address) ?? new Map<string, bigint>())]
      .filter(([, amount]) => amount > 0n)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([denom, amount]) => ({ denom, amount }));
  }

  mint(address: string, coins: Coin[]): void {
    this.ensureAccount(address);
    for (const coin of coins)
      this.setBalance(address, coin.denom, this.balance(address, coin.denom) + coin.amount);
    this.creditObserver?.(this, undefined, address);
  }

  /** x/bank SendCoins: refuses with the SDK's wording when the sender lacks any of the coins. */
  send(from: string, to: string, coins: Coin[]): void {
    this.requireSpendable(from, coins);
    this.ensureAccount(to);
    for (const coin of coins) {
      this.setBalance(from, coin.denom, this.balance(from, coin.denom) - coin.amount);
      this.setBalance(to, coin.denom, this.balance(to, coin.denom) + coin.amount);
    }
    this.creditObserver?.(this, from, to);
  }

  /** x/bank BurnCoins (from the holder, through the module account): refused as a send would be. */
  burn(address: string, coins: Coin[]): void {
    this.requireSpendable(address, coins);
    for (const coin of coins)
      this.setBalance(address, coin.denom, this.balance(address, coin.denom) - coin.amount);
  }

  /** A module's store entry. */
  get(key: string): string | undefined {
    return this.store.get(key);
  }

  set(key: string, value: string | undefined): void {
    if (value === undefined) this.store.delete(key);
    else this.store.set(key, value);
  }

  /** A module store's entries under `prefix`, in insertion order. */
  entries(prefix: string): [string, string][] {
    return [...this.store].filter(([key]) => key.startsWith(prefix));
  }

  allowance(granter: string, grantee: string): FeeAllowance | undefined {
    return this.allowances.get(`${granter}/${grantee}`);
  }

  setAllowance(granter: string, grantee: string, allowance: FeeAllowance | undefined): void {
    if (allowance) this.allowances.set(`${granter}/${grantee}`, allowance);
    else this.allowances.delete(`${granter}/${grantee}`);
  }

  private requireSpendable(address: string, coins: Coin[]): void {
    for (const coin of coins) {
      const spendable = this.balance(address, coin.denom);
      if (spendable < coin.amount) {
        throw new CosmosTxError(
          'insufficientFunds',
          `spendable balance ${spendable}${coin.denom} is smaller than ${coin.amount}${coin.denom}`,
        );
      }
    }
  }

  private setBalance(address: string, denom: string, amount: bigint): void {
    let held = this.balances.get(address);
    if (!held) this.balances.set(address, (held = new Map()));
    if (amount === 0n) held.delete(denom);
    else held.set(denom, amount);
  }
}

export function formatCoins(coins: Coin[]): string {
  return coins.map((c) => `${c.amount}${c.denom}`).join(',');
}
