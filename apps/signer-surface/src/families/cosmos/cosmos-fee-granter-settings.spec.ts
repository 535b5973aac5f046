import { CodedError, ErrorCodes } from '@swapgw/contracts';
import { loadConfig, ManualClock } from '@swapgw/runtime';
import type { SponsoredTransactionsRepository } from '../../sponsorship/sponsored-transactions.repository';
import { SignerSurfaceEnvironment } from '../families';
import { CosmosFeeGranterSettings, CosmosSponsorshipBudget } from './cosmos-fee-granter-settings';

const HUB = 'cosmoshub-4';

describe('CosmosFeeGranterSettings', () => {
  it('defaults: 5 step fees a grant, 1,000,000 base units minimum balance and daily budget', () => {
    const settings = new CosmosFeeGranterSettings(loadConfig(SignerSurfaceEnvironment, {}));
    expect(settings.grantSteps).toBe(5n);
    expect(settings.minBalance).toBe(1_000_000n);
    expect(settings.budget.dailyLimitOf('key-a', HUB)).toBe(1_000_000n);
  });

  it("reads the budget and its per-key overrides in the chain's base units", () => {
    const settings = new CosmosFeeGranterSettings(
      loadConfig(SignerSurfaceEnvironment, {
        COSMOS_FEE_GRANTER_MIN_BALANCE: '5000000',
        SPONSORSHIP_DAILY_BUDGET_COSMOS: '2000000',
        SPONSORSHIP_BUDGET_OVERRIDES: JSON.stringify({ 'key-b': { [HUB]: '30000', '*': '7' } }),
      }),
    );
    expect(settings.minBalance).toBe(5_000_000n);
    expect(settings.budget.dailyLimitOf('key-a', HUB)).toBe(2_000_000n);
    expect(settings.budget.dailyLimitOf('key-b', HUB)).toBe(30_000n);
    expect(settings.budget.dailyLimitOf('key-b', 'osmosis-1')).toBe(7n);
  });

  it('refuses amounts that are not whole base units, naming the variable', () => {
    for (const [name, value] of [
      ['COSMOS_FEE_GRANTER_MIN_BALANCE', '0.5'],
      ['SPONSORSHIP_DAILY_BUDGET_COSMOS', '-1'],
      ['SPONSORSHIP_DAILY_BUDGET_COSMOS', '1uatom'],
    ]) {
      expect(() => loadConfig(SignerSurfaceEnvironment, { [name]: value })).toThrow(
        `${name} must be a decimal string of base units`,
      );
    }
  });
});

describe('CosmosSponsorshipBudget', () => {
  const budgetSpending = (spent: bigint) => {
    const settings = new CosmosFeeGranterSettings(
      loadConfig(SignerSurfaceEnvironment, { SPONSORSHIP_DAILY_BUDGET_COSMOS: '10000' }),
    );
    const ledger = { spentBetween: async () => spent } as unknown as SponsoredTransactionsRepository;
    return new CosmosSponsorshipBudget(ledger, settings, new ManualClock(1_800_000_000_000));
  };

  it("admits a step's fee and grant while today's spend leaves room, to the last base unit", async () => {
    await expect(budgetSpending(7_500n).check('key-a', HUB, 2_500n)).resolves.toBeUndefined();
  });

  it('refuses one base unit more: 503 SPONSORSHIP_BUDGET_EXHAUSTED with what is spent and needed', async () => {
    const refused = await budgetSpending(7_501n)
      .check('key-a', HUB, 2_500n)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CodedError);
    expect((refused as CodedError).code).toBe(ErrorCodes.SPONSORSHIP_BUDGET_EXHAUSTED);
    expect((refused as CodedError).details).toMatchObject({
      chain: HUB,
      budgetWei: '10000',
      spentWei: '7501',
      estimatedCostWei: '2500',
    });
  });
});
