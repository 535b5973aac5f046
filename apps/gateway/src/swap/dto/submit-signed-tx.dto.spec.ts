import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { SubmitSignedTxDto } from './submit-signed-tx.dto';

const errorsOf = (body: object): Record<string, string[]> =>
  Object.fromEntries(
    validateSync(plainToInstance(SubmitSignedTxDto, body)).map((e) => [
      e.property,
      Object.keys(e.constraints ?? {}),
    ]),
  );

const TX_HASH = '0x' + 'ab'.repeat(32);

describe('SubmitSignedTxDto', () => {
  it('takes a rawTx alone or a txHash alone', () => {
    expect(errorsOf({ rawTx: '0x02f8' })).toEqual({});
    expect(errorsOf({ txHash: TX_HASH })).toEqual({});
  });

  it('refuses both, or neither', () => {
    expect(errorsOf({ rawTx: '0x02f8', txHash: TX_HASH })).toEqual({ rawTx: ['exactlyOneOfRawTxAndTxHash'] });
    expect(errorsOf({})).toMatchObject({ rawTx: expect.arrayContaining(['exactlyOneOfRawTxAndTxHash']) });
  });

  it('refuses a txHash that is not 0x and 32 bytes of hex', () => {
    for (const txHash of ['ab'.repeat(32), '0x' + 'ab'.repeat(31), '0x' + 'zz'.repeat(32), '']) {
      expect(errorsOf({ txHash })).toEqual({ txHash: ['matches'] });
    }
  });
});
