import { ArgumentMetadata } from '@nestjs/common';
import { CodedError } from '@swapgw/contracts';
import { createGatewayValidationPipe } from '../../common/validation';
import { CreateQuoteDto } from './create-quote.dto';

const metadata: ArgumentMetadata = { type: 'body', metatype: CreateQuoteDto };
const terms = { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'WETH', amount: '25' };
const EVM = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SOLANA = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

const validated = (body: unknown) => createGatewayValidationPipe().transform(body, metadata);

async function failedFields(body: unknown): Promise<string[]> {
  try {
    await validated(body);
  } catch (error) {
    expect((error as CodedError).code).toBe('VALIDATION_FAILED');
    return ((error as CodedError).details?.fields as Array<{ field: string }>).map((f) => f.field);
  }
  throw new Error('expected a validation failure');
}

describe('POST /quote integratorFee', () => {
  it('takes one object as a one-share array', async () => {
    const body = (await validated({
      ...terms,
      integratorFee: { bps: 50, recipient: EVM },
    })) as CreateQuoteDto;
    expect(body.integratorFee).toEqual([{ bps: 50, recipient: EVM }]);
  });

  it('takes an array of up to 5 shares of at most 300 bps together, and an empty array', async () => {
    const shares = [
      { bps: 100, recipient: EVM },
      { bps: 200, recipient: SOLANA },
    ];
    const body = (await validated({ ...terms, integratorFee: shares })) as CreateQuoteDto;
    expect(body.integratorFee).toEqual(shares);
    expect(((await validated({ ...terms, integratorFee: [] })) as CreateQuoteDto).integratorFee).toEqual([]);
    expect(((await validated(terms)) as CreateQuoteDto).integratorFee).toBeUndefined();
  });

  it('takes a THORChain affiliate as recipient: a THORName or a thor1 address (THORChain routes pay them)', async () => {
    const shares = [
      { bps: 20, recipient: 'mywallet' },
      { bps: 10, recipient: 'thor1t2hav42urasnsvwa6x6fyezaex9f953plh72pq' },
    ];
    expect(((await validated({ ...terms, integratorFee: shares })) as CreateQuoteDto).integratorFee).toEqual(
      shares,
    );
  });

  it.each([
    ['bps over 300', { bps: 301, recipient: EVM }, 'integratorFee.0.bps'],
    ['negative bps', { bps: -1, recipient: EVM }, 'integratorFee.0.bps'],
    ['fractional bps', { bps: 1.5, recipient: EVM }, 'integratorFee.0.bps'],
    [
      'a recipient that is no address',
      { bps: 10, recipient: 'alice@example.com' },
      'integratorFee.0.recipient',
    ],
    ['a mistyped EVM address', { bps: 10, recipient: '0x1234' }, 'integratorFee.0.recipient'],
    ['a missing recipient', { bps: 10 }, 'integratorFee.0.recipient'],
    ['an unknown property', { bps: 10, recipient: EVM, token: 'USDC' }, 'integratorFee.0.token'],
    [
      'shares over 300 bps together',
      [
        { bps: 200, recipient: EVM },
        { bps: 101, recipient: SOLANA },
      ],
      'integratorFee',
    ],
    ['six shares', Array.from({ length: 6 }, () => ({ bps: 1, recipient: EVM })), 'integratorFee'],
    ['a string', '50', 'integratorFee'],
  ])('refuses %s (VALIDATION_FAILED)', async (_name, integratorFee, field) => {
    expect(await failedFields({ ...terms, integratorFee })).toContain(field);
  });
});
