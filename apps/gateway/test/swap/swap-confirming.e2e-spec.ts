import { Transaction } from 'ethers';
import { api, ApiClient, waitFor } from '@swapgw/testing';
import { DevnetEvm } from '../support/devnet-evm';
import { PrivateStack, startPrivateStack } from '../support/private-stack';
import { buildSwapId, quoteFirstRoute } from '../support/swap-steps';

// The `confirming` state through HTTP: a signer-surface that waits for 2 confirmations, on a stack of
// its own (the shared stack waits for 1, where inclusion and confirmation come in the same pass).
// Anvil mines a block per transaction, so each step's transaction sits at 1 confirmation of 2
// until the test mines one more block: the client must see `confirming` with that progress, and
// the next step only after the extra block.
// No response cache: each read sees the chain as it is now.
const devnet = new DevnetEvm({ cacheTimeout: -1 });
// Account 6: besides the scaling suite (whole swaps that leave no allowance), no suite signs with it.
const wallet = devnet.account(6);

describe('a step waits in `confirming` until the transaction has the confirmations required', () => {
  const provider = devnet.provider('devnet-a');
  let privateStack: PrivateStack;
  let client: ApiClient;

  beforeAll(async () => {
    privateStack = await startPrivateStack('confirming', {
      appEnv: { 'signer-surface': { CONFIRMATIONS_REQUIRED: '2' } },
    });
    client = api(privateStack.stack.gatewayUrl!, await privateStack.createApiKey('confirming-e2e'));
  }, 600_000);

  afterAll(async () => {
    devnet.destroy();
    await privateStack?.stop();
  }, 180_000);

  /** Polls the signing endpoint until `accept` takes the answer. */
  const pollSigning = <T>(
    swapId: string,
    description: string,
    accept: (res: { status: number; body: any }) => T | null,
  ) =>
    waitFor(async () => accept(await client.get(`/swap/${swapId}/signing`)), {
      timeoutMs: 60_000,
      intervalMs: 250,
      description,
    });

  it('approve then swap: each step shows confirming 1 of 2, and the next step comes only after one more block', async () => {
    const { quoteId, route } = await quoteFirstRoute(
      { client },
      { fromChain: 'devnet-a', toChain: 'devnet-a', tokenIn: 'USDC', tokenOut: 'DAI', amount: '3' },
    );
    const swapId = await buildSwapId(
      { client },
      {
        quoteId,
        routeId: route.routeId,
        userAddress: wallet.address,
        gasPayment: 'user',
        waitForTxRequestMs: 20_000,
      },
    );

    for (const current of [1, 2]) {
      const ready = await pollSigning(swapId, `step ${current} ready`, (res) =>
        res.status === 200 && res.body.data.signing.step.current === current ? res : null,
      );
      expect(ready.body.data.signing.step).toEqual({ current, total: 2 });
      const rawTx = await wallet.signTransaction(ready.body.data.signing.payload.transaction);
      const txHash = Transaction.from(rawTx).hash!;
      const submitted = await client.post(`/swap/${swapId}/signing`, { rawTx });
      expect(submitted.status).toBe(200);

      const confirming = await pollSigning(swapId, `step ${current} confirming`, (res) =>
        res.body.data?.status === 'confirming' ? res : null,
      );
      expect(confirming.status).toBe(202);
      expect(confirming.body.data).toMatchObject({
        swapId,
        mode: 'async',
        nextAction: 'poll',
        status: 'confirming',
        signing: { step: null, expiresAtMs: null },
        transaction: { txHash, confirmations: 1, confirmationsRequired: 2 },
      });
      const receipt = await provider.getTransactionReceipt(txHash);
      expect(receipt?.status).toBe(1);

      // Still confirming a while later: nothing moves without the second block.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const stillConfirming = await client.get(`/swap/${swapId}/signing`);
      expect(stillConfirming.status).toBe(202);
      expect(stillConfirming.body.data.status).toBe('confirming');

      await provider.send('evm_mine', []);
    }

    const terminal = await pollSigning(swapId, 'swap completed', (res) => (res.status === 409 ? res : null));
    expect(terminal.body.error).toMatchObject({
      code: 'EXECUTION_TERMINAL',
      details: { status: 'completed' },
    });
  });
});
