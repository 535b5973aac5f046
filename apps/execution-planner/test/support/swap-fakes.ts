import type { AddressCheckedChain, ChainFamily, PermitContracts } from '@swapgw/chains';
import type { BitcoinNetworkName } from '@swapgw/chains/families';
import type { SwapStatus } from '@swapgw/contracts';
import type { EventClaim, OutboxMessage } from '@swapgw/messaging';
import type { SwapChains } from '../../src/chains/swap-chains';
import { ExecutionPlannerConfig } from '../../src/config/execution-planner.config';
import { SwapEntity } from '../../src/swaps/swap.entity';
import { StepSettlement, SwapStepEntity } from '../../src/swaps/swap-step.entity';
import { stepIdOf } from '../../src/swaps/swap-messages';
import { DuplicateSwapError, SwapRepository, SwapTransaction } from '../../src/swaps/swap.repository';

/**
 * The statements a SwapTransaction issues, by name, and insertNewSwap (a statement of its own,
 * autocommitted): what one change of a swap costs the database.
 */
export type Statement = Exclude<keyof SwapTransaction, 'afterCommit'> | 'insertNewSwap';

const copyOf = <T extends object>(row: T): T =>
  Object.assign(Object.create(Object.getPrototypeOf(row) as object) as T, row);

/**
 * SwapRepository over maps, with the transaction semantics the planner relies on: a transaction's writes
 * and messages land together when its work resolves and not at all when it throws, its after-commit
 * actions running once they landed; a second insert of a swap id fails the transaction
 * (DuplicateSwapError). Rows are handed out as copies, as a database would.
 */
export class InMemorySwapRepository extends SwapRepository {
  readonly swaps = new Map<string, SwapEntity>();
  readonly steps = new Map<string, SwapStepEntity>();
  /** Committed outbox messages, in order. */
  readonly outbox: OutboxMessage[] = [];
  /**
   * The statements of every transaction run, in order (one list per transaction); an autocommitted
   * statement (insertNewSwap) is a list of its own.
   */
  readonly transactions: Statement[][] = [];
  /** The commands' claims taken with the swaps they built (insertNewSwap). */
  readonly claims = new Set<EventClaim>();

  async findSwap(id: string): Promise<SwapEntity | null> {
    const swap = this.swaps.get(id);
    return swap ? copyOf(swap) : null;
  }

  async insertNewSwap(
    swap: SwapEntity,
    steps: SwapStepEntity[],
    claim: EventClaim,
    messages: OutboxMessage[],
  ): Promise<boolean> {
    this.transactions.push(['insertNewSwap']);
    if (this.swaps.has(swap.id) || this.claims.has(claim)) return false;
    this.claims.add(claim);
    this.swaps.set(swap.id, copyOf(swap));
    for (const step of steps) this.steps.set(step.id, copyOf(step));
    this.outbox.push(...messages);
    return true;
  }

  async transaction<T>(work: (tx: SwapTransaction) => Promise<T>): Promise<T> {
    const tx = new InMemorySwapTransaction(this);
    const result = await work(tx);
    tx.commit();
    return result;
  }

  async dueForExpiry(statuses: readonly SwapStatus[], nowMs: number, limit: number): Promise<string[]> {
    return [...this.swaps.values()]
      .filter((swap) => statuses.includes(swap.status) && swap.expiresAtMs <= nowMs)
      .sort((a, b) => a.expiresAtMs - b.expiresAtMs)
      .slice(0, limit)
      .map((swap) => swap.id);
  }

  async awaitingPriceCheck(limit: number): Promise<SwapStepEntity[]> {
    return [...this.steps.values()]
      .filter((step) => step.status === 'repricing')
      .sort((a, b) => a.updatedAtMs - b.updatedAtMs)
      .slice(0, limit)
      .map((step) => copyOf(step));
  }

  async awaitingSettlement(settlement: StepSettlement, limit: number): Promise<SwapStepEntity[]> {
    return [...this.steps.values()]
      .filter((step) => step.status === 'settling' && step.settlement === settlement)
      .sort((a, b) => a.updatedAtMs - b.updatedAtMs)
      .slice(0, limit)
      .map((step) => copyOf(step));
  }

  /** The swap as stored (a copy), which must exist. */
  swap(id: string): SwapEntity {
    const swap = this.swaps.get(id);
    if (!swap) throw new Error(`no swap ${id}`);
    return copyOf(swap);
  }

  /** The swap's steps as stored, in order. */
  stepsOf(swapId: string): SwapStepEntity[] {
    return [...this.steps.values()]
      .filter((step) => step.swapId === swapId)
      .sort((a, b) => a.stepIndex - b.stepIndex);
  }

  /** The swap's committed messages, in order. */
  messagesOf(swapId: string): OutboxMessage[] {
    return this.outbox.filter((message) => message.aggregateId === swapId);
  }

  /** Changes a stored swap behind the planner's back (a test's setup). */
  patchSwap(id: string, patch: Partial<SwapEntity>): void {
    this.swaps.set(id, Object.assign(this.swap(id), patch));
  }
}

/** One transaction: writes are staged, then applied by commit(). */
class InMemorySwapTransaction implements SwapTransaction {
  private readonly swaps = new Map<string, SwapEntity>();
  private readonly steps = new Map<string, SwapStepEntity>();
  private readonly inserted = new Set<string>();
  private readonly messages: OutboxMessage[] = [];
  private readonly statements: Statement[] = [];
  private readonly commitActions: (() => void)[] = [];

  constructor(private readonly store: InMemorySwapRepository) {
    store.transactions.push(this.statements);
  }

  async findSwap(id: string): Promise<SwapEntity | null> {
    this.statements.push('findSwap');
    return this.readSwap(id);
  }

  async lockSwapAndCurrentStep(
    id: string,
  ): Promise<{ swap: SwapEntity; step: SwapStepEntity | null } | null> {
    this.statements.push('lockSwapAndCurrentStep');
    const swap = this.readSwap(id);
    if (!swap) return null;
    const stepId = stepIdOf(swap.id, swap.currentStep);
    const step = this.steps.get(stepId) ?? this.store.steps.get(stepId);
    return { swap, step: step ? copyOf(step) : null };
  }

  async getStep(stepId: string): Promise<SwapStepEntity> {
    this.statements.push('getStep');
    const step = this.steps.get(stepId) ?? this.store.steps.get(stepId);
    if (!step) throw new Error(`no step ${stepId}`);
    return copyOf(step);
  }

  async insertSwap(swap: SwapEntity, steps: SwapStepEntity[]): Promise<void> {
    this.statements.push('insertSwap');
    if (this.store.swaps.has(swap.id) || this.swaps.has(swap.id))
      throw new DuplicateSwapError(new Error('23505'));
    this.inserted.add(swap.id);
    this.swaps.set(swap.id, copyOf(swap));
    for (const step of steps) this.steps.set(step.id, copyOf(step));
  }

  async updateProgress(
    swap: SwapEntity,
    steps: SwapStepEntity[],
    messages: OutboxMessage[] = [],
  ): Promise<void> {
    this.statements.push('updateProgress');
    this.swaps.set(swap.id, copyOf(swap));
    for (const step of steps) this.steps.set(step.id, copyOf(step));
    this.messages.push(...messages);
  }

  async enqueue(...messages: OutboxMessage[]): Promise<void> {
    this.statements.push('enqueue');
    this.messages.push(...messages);
  }

  afterCommit(action: () => void): void {
    this.commitActions.push(action);
  }

  commit(): void {
    // A racing transaction may have inserted the same swap meanwhile: the database's unique key.
    if ([...this.inserted].some((id) => this.store.swaps.has(id)))
      throw new DuplicateSwapError(new Error('23505'));
    for (const [id, swap] of this.swaps) this.store.swaps.set(id, swap);
    for (const [id, step] of this.steps) this.store.steps.set(id, step);
    this.store.outbox.push(...this.messages);
    for (const action of this.commitActions) action();
  }

  private readSwap(id: string): SwapEntity | null {
    const swap = this.swaps.get(id) ?? this.store.swaps.get(id);
    return swap ? copyOf(swap) : null;
  }
}

/** SwapChains over a table: every chain EVM unless named otherwise; balances and allowances 0. */
export class FakeSwapChains implements SwapChains {
  constructor(
    private readonly chains: Record<
      string,
      {
        family?: ChainFamily;
        evmChainId?: number;
        signingSurface?: boolean;
        bitcoinNetwork?: BitcoinNetworkName;
      }
    > = {},
  ) {}

  hasSigningSurface(chain: string): boolean {
    return this.chains[chain]?.signingSurface ?? chain in this.chains;
  }

  familyOf(chain: string): ChainFamily {
    return this.chains[chain]?.family ?? 'evm';
  }

  addressChainOf(chain: string): AddressCheckedChain {
    return { id: chain, family: this.familyOf(chain), bitcoinNetwork: this.chains[chain]?.bitcoinNetwork };
  }

  evmChainIdOf(chain: string): number {
    const id = this.chains[chain]?.evmChainId;
    if (id === undefined) throw new Error(`Chain ${chain} has no EVM chain id`);
    return id;
  }

  async balanceOf(): Promise<bigint> {
    return 0n;
  }

  async allowanceOf(): Promise<bigint> {
    return 0n;
  }

  permitContractsOf(): PermitContracts | undefined {
    return undefined;
  }

  tokenPermitOf(): { name: string; version: string } | undefined {
    return undefined;
  }

  descriptorOf(): undefined {
    return undefined;
  }
}

/** A validated planner config with the defaults (a one-hour deadline, a 15 s sweep), overridable. */
export function plannerConfigOf(overrides: Partial<ExecutionPlannerConfig> = {}): ExecutionPlannerConfig {
  return Object.assign(new ExecutionPlannerConfig(), overrides);
}
