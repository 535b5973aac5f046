import { NoRouteError } from '../no-route.error';
import type { QuoteContext } from '../quote-provider';

/** No Cosmos step carries an integrator fee yet: a quote asking one gets no Cosmos route (INTEGRATOR_FEE_NOT_SUPPORTED). */
export function refuseCosmosIntegratorFee(context: QuoteContext): void {
  if (context.integratorFee && context.integratorFee.charges.length > 0)
    throw new NoRouteError(
      'INTEGRATOR_FEE_NOT_SUPPORTED',
      'Cosmos routes carry no integrator fee yet: quote without integratorFees',
    );
}
