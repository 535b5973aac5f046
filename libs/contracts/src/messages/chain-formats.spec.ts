import { TX_HASH, WALLET_ADDRESS } from './chain-formats';

describe('chain formats', () => {
  it('takes a wallet of every family: EVM, Solana, Bitcoin of any network and Cosmos; nothing else', () => {
    for (const address of [
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
      'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj',
      'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      'cosmos1erxf3sa9q2j4vgseu7jq4a258ckmk7cy076t8z',
      'osmo17p9rzwnnfxcjp32un9ug7yhhzgtkhvl9jfksztgw5uh69wac2pgs5yczr8',
    ])
      expect(WALLET_ADDRESS.test(address)).toBe(true);
    for (const address of [
      '0x1234',
      'BCRT1QLQJ2PDSTEPPKCR8JKP9MS0WPVEY89TNA8V72SJ',
      'ltc1qxyz',
      'cosmos1erxf3sa9q2j4vgseu7jq4a258ckmk7cy076t8',
      '',
    ])
      expect(WALLET_ADDRESS.test(address)).toBe(false);
  });

  it('takes an EVM hash, a Solana signature and a Bitcoin txid (hex, no 0x)', () => {
    expect(TX_HASH.test(`0x${'ab'.repeat(32)}`)).toBe(true);
    expect(TX_HASH.test('0f'.repeat(32))).toBe(true);
    expect(TX_HASH.test('5'.repeat(88))).toBe(true);
    expect(TX_HASH.test('0f'.repeat(31))).toBe(false);
  });
});
