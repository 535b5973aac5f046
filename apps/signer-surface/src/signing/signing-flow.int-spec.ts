import {
  CodedError,
  EvmSigningPayload,
  SigningSubmitResult,
  TransactionStatusResult,
} from '@swapgw/contracts';
import { waitFor } from '@swapgw/testing';
import {
  Contract,
  HDNodeWallet,
  Interface,
  NonceManager,
  Transaction,
  TransactionRequest,
  Wallet,
} from 'ethers';
import { randomUUID } from 'node:crypto';
import { registryOf, startTestChain, TestChain } from '../../test/signer-test-chain';
import { ReceivedEvent, SignerTestService, startSignerTestService } from '../../test/signer-test-service';

// Real anvil, PostgreSQL and Kafka: commands in on signing.commands, events out on signing.events,
// signing.submit and status.transaction over request-reply, the client signing with ethers.

const CHAIN = 'signer-it-a';
const DOWN_CHAIN = 'signer-it-down';
let chain: TestChain;
let service: SignerTestService;
let fixture: Interface;
let user: HDNodeWallet;
let stranger: HDNodeWallet;
const spender = '0x000000000000000000000000000000000000dEaD';

const signable = (tx: object): TransactionRequest => tx as TransactionRequest;

beforeAll(async () => {
  chain = await startTestChain(CHAIN);
  // A chain whose RPC port nothing listens on: the upstream-down case.
  const registry = registryOf([
    { id: CHAIN, chainId: chain.chainId, rpcUrl: chain.rpcUrl },
    { id: DOWN_CHAIN, chainId: 31339, rpcUrl: 'http://127.0.0.1:9' },
  ]);
  service = await startSignerTestService(registry);
  fixture = new Interface(chain.fixtureAbi as never);
  user = chain.wallet(1);
  stranger = chain.wallet(2);
}, 90_000);

afterAll(async () => {
  await service?.close();
  await chain?.stop();
});

const eventsOf = (swapId: string, type?: string): ReceivedEvent[] =>
  service.events.filter((e) => e.aggregateId === swapId && (type === undefined || e.type === type));

const nextEvent = (swapId: string, type: string, after = 0) =>
  waitFor(() => eventsOf(swapId, type)[after], {
    timeoutMs: 30_000,
    description: `${type} #${after + 1} for ${swapId}`,
  });

function prepareCommand(swapId: string, overrides: Record<string, unknown> = {}) {
  return {
    swapId,
    stepId: `${swapId}-step-1`,
    stepIndex: 1,
    stepCount: 1,
    kind: 'swap',
    chain: CHAIN,
    from: user.address,
    call: {
      to: chain.fixtureAddress,
      data: fixture.encodeFunctionData('approve', [spender, 1000n]),
      value: '0',
    },
    ...overrides,
  };
}

async function submit(swapId: string, rawTx: string): Promise<SigningSubmitResult> {
  return service.request<SigningSubmitResult>('signing.submit', swapId, { swapId, rawTx });
}

/** signing.submit of a transaction the wallet sent itself. */
async function submitHash(swapId: string, txHash: string): Promise<SigningSubmitResult> {
  return service.request<SigningSubmitResult>('signing.submit', swapId, { swapId, txHash });
}

async function submitError(
  swapId: string,
  rawTx: string,
  as: 'rawTx' | 'txHash' = 'rawTx',
): Promise<CodedError> {
  try {
    await (as === 'rawTx' ? submit(swapId, rawTx) : submitHash(swapId, rawTx));
  } catch (error) {
    if (error instanceof CodedError) return error;
    throw error;
  }
  throw new Error('expected signing.submit to fail');
}

async function statusOf(chainRef: string, txHash: string): Promise<TransactionStatusResult> {
  return service.request<TransactionStatusResult>('status.transaction', txHash, { chain: chainRef, txHash });
}

async function statusError(chainRef: string, txHash: string): Promise<CodedError> {
  try {
    await statusOf(chainRef, txHash);
  } catch (error) {
    if (error instanceof CodedError) return error;
    throw error;
  }
  throw new Error('expected status.transaction to fail');
}

describe('signer-surface signing flow', () => {
  it('prepares an approve, accepts the wallet-signed payload, broadcasts it and reports it confirmed', async () => {
    const swapId = `swp-${randomUUID()}`;
    const data = fixture.encodeFunctionData('approve', [spender, 5000n]);
    await service.sendCommand(
      'signing.prepare',
      swapId,
      prepareCommand(swapId, {
        kind: 'approve',
        stepCount: 2,
        call: { to: chain.fixtureAddress, data, value: '0' },
        approve: { token: chain.fixtureAddress, spender, amount: '5000' },
      }),
    );

    const ready = await nextEvent(swapId, 'signing.payload-ready');
    const payload = ready.payload.payload as EvmSigningPayload;
    expect(payload.type).toBe('evm-transaction');
    expect(payload.transaction).toMatchObject({
      chainId: String(chain.chainId),
      from: user.address,
      to: chain.fixtureAddress,
      data,
      value: '0',
    });
    expect(ready.payload).toMatchObject({
      stepIndex: 1,
      stepCount: 2,
      kind: 'approve',
      clientHints: { recommendedWallet: 'MetaMask', network: `Test ${CHAIN}`, action: 'approve' },
    });
    expect(ready.payload.expiresAtMs as number).toBeGreaterThan(Date.now() + 60_000);

    const rawTx = await user.signTransaction(signable(payload.transaction));
    const result = await submit(swapId, rawTx);
    expect(result).toEqual({
      swapId,
      stepIndex: 1,
      txHash: Transaction.from(rawTx).hash,
      status: 'submitted',
    });

    const confirmed = await nextEvent(swapId, 'signing.step-confirmed');
    expect(confirmed.payload).toMatchObject({
      swapId,
      stepIndex: 1,
      txHash: result.txHash,
      confirmations: 1,
    });
    expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(1);
    // In a block first (the swap is `confirming`), then confirmed: one confirmation is required here.
    const receiptBlock = (await chain.provider.getTransactionReceipt(result.txHash))!.blockNumber;
    expect(eventsOf(swapId, 'signing.step-included').map((e) => e.payload)).toEqual([
      expect.objectContaining({
        txHash: result.txHash,
        blockNumber: receiptBlock,
        confirmations: 1,
        confirmationsRequired: 1,
      }),
    ]);
    const order = eventsOf(swapId).map((e) => e.type);
    expect(order.indexOf('signing.step-included')).toBeLessThan(order.indexOf('signing.step-confirmed'));

    const token = new Contract(chain.fixtureAddress, chain.fixtureAbi as never, chain.provider);
    expect(await token.allowance(user.address, spender)).toBe(5000n);

    const receipt = await chain.provider.getTransactionReceipt(result.txHash);
    const block = await chain.provider.getBlock(receipt!.blockNumber);
    expect(await statusOf(CHAIN, result.txHash)).toEqual({
      txHash: result.txHash,
      chain: CHAIN,
      status: 'confirmed',
      confirmedAtMs: block!.timestamp * 1000,
    });

    // Step 1 of 2 is done and step 2 not prepared yet: another transaction is too early.
    const early = await user.signTransaction(
      signable({ ...payload.transaction, nonce: String(Number(payload.transaction.nonce) + 1) }),
    );
    expect((await submitError(swapId, early)).code).toBe('TX_REQUEST_NOT_YET_VALID');
  });

  it('follows a transaction the wallet sent itself (txHash): from, to, data, value and chain as issued, nonce and gas its own', async () => {
    const swapId = `swp-${randomUUID()}`;
    const data = fixture.encodeFunctionData('approve', [spender, 7000n]);
    // Its nonces counted here: sends in a row must not read a cached pending count.
    const wallet = new NonceManager(user);
    // The very call, sent before the payload existed (another swap's, say): not this step's.
    const early = await wallet.sendTransaction({ to: chain.fixtureAddress, data });
    await early.wait();
    await service.sendCommand(
      'signing.prepare',
      swapId,
      prepareCommand(swapId, { call: { to: chain.fixtureAddress, data, value: '0' } }),
    );
    const payload = ((await nextEvent(swapId, 'signing.payload-ready')).payload.payload as EvmSigningPayload)
      .transaction;
    expect(await submitError(swapId, early.hash, 'txHash')).toMatchObject({
      code: 'TX_REQUEST_MISMATCH',
      details: {
        mismatches: [{ field: 'nonce', expected: `>= ${payload.nonce}`, actual: String(early.nonce) }],
      },
    });
    // Another call by the same wallet.
    const other = await wallet.sendTransaction({
      to: chain.fixtureAddress,
      data: fixture.encodeFunctionData('approve', [spender, 1n]),
    });
    expect(await submitError(swapId, other.hash, 'txHash')).toMatchObject({
      code: 'TX_REQUEST_MISMATCH',
      details: { mismatches: [{ field: 'data', expected: data, actual: other.data }] },
    });

    // As MetaMask does: the issued from, to, data and value, its own nonce and gas.
    const sent = await wallet.sendTransaction({
      to: payload.to,
      data: payload.data,
      value: BigInt(payload.value),
      gasLimit: BigInt(payload.gasLimit) + 1_000n,
    });
    expect(BigInt(sent.nonce)).toBeGreaterThan(BigInt(payload.nonce));
    const result = await submitHash(swapId, sent.hash);
    expect(result).toEqual({ swapId, stepIndex: 1, txHash: sent.hash, status: 'submitted' });
    expect(await submitHash(swapId, sent.hash.toUpperCase().replace('0X', '0x'))).toEqual(result);
    const confirmed = await nextEvent(swapId, 'signing.step-confirmed');
    expect(confirmed.payload).toMatchObject({ swapId, stepIndex: 1, txHash: sent.hash });
    expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(1);
    const token = new Contract(chain.fixtureAddress, chain.fixtureAbi as never, chain.provider);
    expect(await token.allowance(user.address, spender)).toBe(7000n);

    // A hash the chain does not know, after the bounded wait.
    expect(await submitError(swapId, '0x' + '42'.repeat(32), 'txHash')).toMatchObject({
      code: 'TRANSACTION_NOT_FOUND',
      details: { chain: CHAIN },
    });
  });

  it('skips an approve whose allowance already covers the amount', async () => {
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand(
      'signing.prepare',
      swapId,
      prepareCommand(swapId, {
        kind: 'approve',
        approve: { token: chain.fixtureAddress, spender, amount: '4000' }, // 5000 approved above
      }),
    );
    const skipped = await nextEvent(swapId, 'signing.step-skipped');
    expect(skipped.payload).toMatchObject({ swapId, stepIndex: 1, chain: CHAIN });
    expect(eventsOf(swapId, 'signing.payload-ready')).toHaveLength(0);
  });

  it('refuses a signed transaction that differs from the payload, naming the fields, and accepts the same rawTx twice with one broadcast', async () => {
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, prepareCommand(swapId));
    const payload = (await nextEvent(swapId, 'signing.payload-ready')).payload.payload as EvmSigningPayload;
    const tx = payload.transaction;

    const tampered = await user.signTransaction(
      signable({ ...tx, gasLimit: String(BigInt(tx.gasLimit) + 1n), value: '1' }),
    );
    const mismatch = await submitError(swapId, tampered);
    expect(mismatch.code).toBe('TX_REQUEST_MISMATCH');
    expect((mismatch.details?.mismatches as Array<{ field: string }>).map((m) => m.field)).toEqual([
      'value',
      'gasLimit',
    ]);

    const otherSigner = await stranger.signTransaction(signable({ ...tx, from: stranger.address }));
    const wrongSigner = await submitError(swapId, otherSigner);
    expect(wrongSigner.code).toBe('TX_REQUEST_MISMATCH');
    expect((wrongSigner.details?.mismatches as Array<{ field: string }>).map((m) => m.field)).toEqual([
      'from',
    ]);

    expect((await submitError(swapId, '0x1234')).code).toBe('INVALID_SIGNED_TX');

    const nonceBefore = await chain.provider.getTransactionCount(user.address, 'latest');
    const rawTx = await user.signTransaction(signable(tx));
    const first = await submit(swapId, rawTx);
    const second = await submit(swapId, rawTx);
    expect(second).toEqual(first);
    await nextEvent(swapId, 'signing.step-confirmed');
    expect(await chain.provider.getTransactionCount(user.address, 'latest')).toBe(nonceBefore + 1);
    expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(1);
    // Once the last step is confirmed, the same rawTx still gets the same answer...
    expect(await submit(swapId, rawTx)).toEqual(first);
    // ...and any other transaction is told the execution is over.
    const late = await submitError(swapId, tampered);
    expect(late.code).toBe('EXECUTION_TERMINAL');
  });

  it('answers tx_request_expired for an expired payload, and signing.refresh issues a fresh one that is accepted', async () => {
    const swapId = `swp-${randomUUID()}`;
    const command = prepareCommand(swapId);
    await service.sendCommand('signing.prepare', swapId, command);
    const first = await nextEvent(swapId, 'signing.payload-ready');
    const oldRawTx = await user.signTransaction(
      signable((first.payload.payload as EvmSigningPayload).transaction),
    );

    // The signing window passes.
    await service.dataSource.query(
      `UPDATE "${service.schema}"."signing_requests" SET expires_at_ms = $1 WHERE swap_id = $2`,
      [Date.now() - 1, swapId],
    );
    const expired = await submitError(swapId, oldRawTx);
    expect(expired.code).toBe('tx_request_expired');

    await service.sendCommand('signing.refresh', swapId, { swapId, stepId: command.stepId });
    const fresh = await nextEvent(swapId, 'signing.payload-ready', 1);
    expect(fresh.payload.signingRequestId).not.toBe(first.payload.signingRequestId);
    expect(fresh.payload.expiresAtMs as number).toBeGreaterThan(Date.now());

    const accepted = await submit(
      swapId,
      await user.signTransaction(signable((fresh.payload.payload as EvmSigningPayload).transaction)),
    );
    expect(accepted.status).toBe('submitted');
    await nextEvent(swapId, 'signing.step-confirmed');

    const rows = await service.dataSource.query(
      `SELECT status FROM "${service.schema}"."signing_requests" WHERE swap_id = $1 ORDER BY created_at`,
      [swapId],
    );
    expect(rows.map((r: { status: string }) => r.status)).toEqual(['superseded', 'confirmed']);
  });

  it('fails a step whose call would revert before anything is signed, with the revert reason', async () => {
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand(
      'signing.prepare',
      swapId,
      prepareCommand(swapId, {
        call: { to: chain.fixtureAddress, data: fixture.encodeFunctionData('alwaysFails'), value: '0' },
      }),
    );
    const failed = await nextEvent(swapId, 'signing.step-failed');
    expect(failed.payload).toMatchObject({
      swapId,
      code: 'TX_REQUEST_INVALID',
      reason: 'fixture: always fails',
    });
  });

  it('reports a transaction that reverts on chain as step-failed with the reason, and its status as failed', async () => {
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand(
      'signing.prepare',
      swapId,
      prepareCommand(swapId, {
        call: { to: chain.fixtureAddress, data: fixture.encodeFunctionData('claim'), value: '0' },
      }),
    );
    const payload = (await nextEvent(swapId, 'signing.payload-ready')).payload.payload as EvmSigningPayload;
    // Someone else claims first: the user's signed call, valid when issued, now reverts on chain.
    const front = new Contract(chain.fixtureAddress, chain.fixtureAbi as never, stranger);
    await (await front.claim()).wait();

    const { txHash } = await submit(swapId, await user.signTransaction(signable(payload.transaction)));
    const failed = await nextEvent(swapId, 'signing.step-failed');
    expect(failed.payload).toMatchObject({
      swapId,
      code: 'TX_REVERTED',
      reason: 'fixture: already claimed',
      txHash,
    });
    expect(await statusOf(CHAIN, txHash)).toEqual({
      txHash,
      chain: CHAIN,
      status: 'failed',
      error: 'fixture: already claimed',
    });
    const retry = await user.signTransaction(
      signable({ ...payload.transaction, nonce: String(Number(payload.transaction.nonce) + 1) }),
    );
    expect((await submitError(swapId, retry)).code).toBe('EXECUTION_TERMINAL');
  });

  it('keeps a step waiting for its balance and issues the payload once the balance arrives', async () => {
    const swapId = `swp-${randomUUID()}`;
    const holder = Wallet.createRandom().address;
    await service.sendCommand(
      'signing.prepare',
      swapId,
      prepareCommand(swapId, {
        waitFor: { token: chain.fixtureAddress, holder, minBalance: '700' },
      }),
    );
    const waiting = await nextEvent(swapId, 'signing.waiting');
    expect(waiting.payload.readyAtMs as number).toBeGreaterThan(Date.now() - 1000);
    const notYet = await submitError(
      swapId,
      await user.signTransaction(
        signable({
          to: chain.fixtureAddress,
          chainId: chain.chainId,
          nonce: 0,
          gasLimit: 50_000,
          maxFeePerGas: 1n,
          maxPriorityFeePerGas: 1n,
        }),
      ),
    );
    expect(notYet.code).toBe('TX_REQUEST_NOT_YET_VALID');

    const minter = new Contract(chain.fixtureAddress, chain.fixtureAbi as never, chain.wallet(0));
    await (await minter.mint(holder, 700n)).wait();
    const ready = await nextEvent(swapId, 'signing.payload-ready');
    expect((ready.payload.payload as EvmSigningPayload).transaction.from).toBe(user.address);
  });

  it('answers signing.unavailable for a chain without a signing surface', async () => {
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, prepareCommand(swapId, { chain: 'no-such-chain' }));
    const unavailable = await nextEvent(swapId, 'signing.unavailable');
    expect(unavailable.payload).toMatchObject({ swapId, chain: 'no-such-chain' });
    expect(eventsOf(swapId, 'signing.payload-ready')).toHaveLength(0);
  });

  it('sends an accepted transaction that never reached the node (crash before broadcast) and confirms it', async () => {
    const swapId = `swp-${randomUUID()}`;
    await service.sendCommand('signing.prepare', swapId, prepareCommand(swapId));
    const payload = (await nextEvent(swapId, 'signing.payload-ready')).payload.payload as EvmSigningPayload;
    const rawTx = await user.signTransaction(signable(payload.transaction));
    const txHash = Transaction.from(rawTx).hash as string;
    // Never broadcast. Checked before the row below exists: from then on the tracker may resend it
    // at any moment, which is the behaviour under test.
    expect(await chain.provider.getTransaction(txHash)).toBeNull();
    // What the accepting transaction commits; the process then dies before eth_sendRawTransaction.
    await service.dataSource.query(
      `UPDATE "${service.schema}"."signing_requests"
          SET status = 'submitted', raw_tx = $1, tx_hash = $2, broadcast_at = now() - interval '1 minute', next_check_at_ms = 0
        WHERE swap_id = $3`,
      [rawTx, txHash, swapId],
    );

    const confirmed = await nextEvent(swapId, 'signing.step-confirmed');
    expect(confirmed.payload).toMatchObject({ swapId, txHash });
    expect((await chain.provider.getTransactionReceipt(txHash))?.status).toBe(1);
  });

  it('answers SWAP_NOT_FOUND for a swap it never prepared', async () => {
    const rawTx = await user.signTransaction(
      signable({
        to: spender,
        chainId: chain.chainId,
        nonce: 0,
        gasLimit: 21_000,
        maxFeePerGas: 1n,
        maxPriorityFeePerGas: 1n,
      }),
    );
    expect((await submitError(`swp-${randomUUID()}`, rawTx)).code).toBe('SWAP_NOT_FOUND');
  });
});

describe('status.transaction', () => {
  it('tells not found, wrong hash form, unknown chain and an unreachable RPC apart', async () => {
    const unknownHash = `0x${'ab'.repeat(32)}`;
    expect((await statusError(CHAIN, unknownHash)).code).toBe('TRANSACTION_NOT_FOUND');
    expect((await statusError(CHAIN, '0x1234')).code).toBe('INVALID_TX_HASH');
    expect((await statusError(CHAIN, 'ab'.repeat(32))).code).toBe('INVALID_TX_HASH');
    expect((await statusError('no-such-chain', unknownHash)).code).toBe('UNKNOWN_CHAIN');
    expect((await statusError(DOWN_CHAIN, unknownHash)).code).toBe('STATUS_UPSTREAM_ERROR');
  });

  it('reports a transaction in the mempool as pending and, once mined, as confirmed at the block time', async () => {
    await chain.provider.send('evm_setAutomine', [false]);
    try {
      const sent = await chain.wallet(3).sendTransaction({ to: spender, value: 1n });
      expect(await statusOf(CHAIN, sent.hash)).toEqual({
        txHash: sent.hash,
        chain: CHAIN,
        status: 'pending',
      });
      await chain.provider.send('evm_mine', []);
      const receipt = await waitFor(() => chain.provider.getTransactionReceipt(sent.hash), {
        description: 'the mined receipt',
      });
      const block = await chain.provider.getBlock(receipt.blockNumber);
      expect(await statusOf(CHAIN, sent.hash)).toEqual({
        txHash: sent.hash,
        chain: CHAIN,
        status: 'confirmed',
        confirmedAtMs: block!.timestamp * 1000,
      });
    } finally {
      await chain.provider.send('evm_setAutomine', [true]);
    }
  });
});
