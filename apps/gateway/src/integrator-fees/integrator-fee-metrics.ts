import { Counter } from 'prom-client';
import { baseUnitsToAmount } from '@swapgw/chains';
import { metricsRegistry } from '@swapgw/runtime';
import type { CollectedIntegratorFee } from './integrator-fees-collected.repository';

const registers = [metricsRegistry()];

const collected = new Counter({
  name: 'swapgw_integrator_fees_collected_total',
  help: 'Integrator fees paid on chain by confirmed swaps, in units of the token (not base units), by chain and token symbol',
  labelNames: ['chain', 'token'] as const,
  registers,
});

const payments = new Counter({
  name: 'swapgw_integrator_fee_payments_total',
  help: 'Integrator fee payments recorded (one per swap and recipient), by chain and token symbol',
  labelNames: ['chain', 'token'] as const,
  registers,
});

export const integratorFeeMetrics = {
  /** One fee newly recorded in gateway.integrator_fees_collected. */
  recorded: (fee: CollectedIntegratorFee) => {
    const labels = { chain: fee.chain, token: fee.token.symbol };
    collected.inc(labels, Number(baseUnitsToAmount(fee.amount, fee.token.decimals)));
    payments.inc(labels);
  },
};
