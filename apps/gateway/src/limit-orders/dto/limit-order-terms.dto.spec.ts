import { ArgumentMetadata, Type } from '@nestjs/common';
import { CodedError } from '@swapgw/contracts';
import { createGatewayValidationPipe } from '../../common/validation/validation-pipe';
import { CreateQuoteDto } from '../../quote/dto/create-quote.dto';
import { CreateLimitOrderDto, ReplaceLimitOrderDto } from './limit-order-terms.dto';

const order = {
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: 'WETH',
  tokenOut: 'USDC',
  amount: '1.5',
  minAmountOut: '4500',
};
const quoteTerms = {
  fromChain: 'devnet-a',
  toChain: 'devnet-a',
  tokenIn: 'WETH',
  tokenOut: 'USDC',
  amount: '1.5',
};

/** The refused fields the gateway's pipe reports, or 'ok'. */
async function verdict(metatype: Type<unknown>, value: Record<string, unknown>): Promise<string[] | 'ok'> {
  const metadata: ArgumentMetadata = { type: 'body', metatype };
  try {
    await createGatewayValidationPipe().transform(value, metadata);
    return 'ok';
  } catch (error) {
    const fields = ((error as CodedError).details?.fields ?? []) as Array<{ field: string }>;
    return fields.map((f) => f.field);
  }
}

describe('limit-order terms DTOs', () => {
  it('accept the terms POST /quote accepts, plus the order fields', async () => {
    expect(
      await verdict(CreateLimitOrderDto, { ...order, network: 'testnet', slippageBps: 50, routeKey: 'r' }),
    ).toBe('ok');
    expect(await verdict(ReplaceLimitOrderDto, { ...order, timeInForce: 'GTD', expireAfterMs: 60_000 })).toBe(
      'ok',
    );
  });

  it.each([
    ['a zero amount', { amount: '0' }, 'amount'],
    ['an amount with an exponent', { amount: '1e3' }, 'amount'],
    ['a token symbol over 64 characters', { tokenIn: 'X'.repeat(65) }, 'tokenIn'],
    ['a recipient that is no wallet address', { recipient: 'not-an-address' }, 'recipient'],
    ['slippage over 5000 bps', { slippageBps: 5001 }, 'slippageBps'],
    ['a network other than mainnet or testnet', { network: 'devnet' }, 'network'],
  ])('refuse %s on the same field as the quote DTO does', async (_case, overrides, field) => {
    expect(await verdict(CreateQuoteDto, { ...quoteTerms, ...overrides })).toEqual([field]);
    expect(await verdict(CreateLimitOrderDto, { ...order, ...overrides })).toEqual([field]);
    expect(await verdict(ReplaceLimitOrderDto, { ...order, ...overrides })).toEqual([field]);
  });

  it('refuse a zero minAmountOut, and route fields on replace', async () => {
    expect(await verdict(CreateLimitOrderDto, { ...order, minAmountOut: '0.0' })).toEqual(['minAmountOut']);
    expect(await verdict(ReplaceLimitOrderDto, { ...order, routeKey: 'r' })).toEqual(['routeKey']);
  });
});
