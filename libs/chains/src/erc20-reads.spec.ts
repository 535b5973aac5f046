import { Interface, type Provider, type TransactionRequest, Wallet, ZeroHash } from 'ethers';
import { readErc20Allowance, readEvmBalance, readPermitNonce } from './erc20-reads';

const ERC20 = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function nonces(address owner) view returns (uint256)',
]);

/** A node that answers every eth_call with `answer` and records what it was sent. */
function nodeAnswering(answer: string): { provider: Provider; sent: TransactionRequest[] } {
  const sent: TransactionRequest[] = [];
  const provider = {
    call: async (tx: TransactionRequest) => {
      sent.push(tx);
      return answer;
    },
  } as unknown as Provider;
  return { provider, sent };
}

describe('ERC-20 reads', () => {
  const token = Wallet.createRandom().address;
  const owner = Wallet.createRandom().address;
  const spender = Wallet.createRandom().address.toLowerCase();
  const answer = ERC20.encodeFunctionResult('balanceOf', [123456789n * 10n ** 30n]);

  it('send the calldata ethers encodes and read the uint256 it decodes', async () => {
    const { provider, sent } = nodeAnswering(answer);
    expect(await readErc20Allowance(provider, token, owner, spender)).toBe(123456789n * 10n ** 30n);
    expect(await readEvmBalance(provider, token, owner)).toBe(123456789n * 10n ** 30n);
    expect(await readPermitNonce(provider, token, owner)).toBe(123456789n * 10n ** 30n);
    expect(sent.map((tx) => [tx.to, tx.data])).toEqual([
      [token, ERC20.encodeFunctionData('allowance', [owner, spender])],
      [token, ERC20.encodeFunctionData('balanceOf', [owner])],
      [token, ERC20.encodeFunctionData('nonces', [owner])],
    ]);
  });

  it('refuse an answer that is not a uint256 as ethers does (an address without code answers 0x)', async () => {
    const { provider } = nodeAnswering('0x');
    await expect(readEvmBalance(provider, token, owner)).rejects.toMatchObject({ code: 'BAD_DATA' });
    expect(await readEvmBalance(nodeAnswering(ZeroHash).provider, token, owner)).toBe(0n);
  });

  it('leave what is not a plain address to ethers, which refuses it', async () => {
    const { provider, sent } = nodeAnswering(answer);
    await expect(readEvmBalance(provider, token, '0x1234')).rejects.toThrow();
    expect(sent).toEqual([]);
  });
});
