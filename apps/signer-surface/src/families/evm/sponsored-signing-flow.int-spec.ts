import { EvmSigningPayload, EvmTypedDataSigningPayload, SigningSubmitResult } from '@swapgw/contracts';
import { ethersTypedDataArgs } from '@swapgw/chains';
import { waitFor } from '@swapgw/testing';
import {
  Contract,
  HDNodeWallet,
  hexlify,
  Interface,
  MaxUint256,
  randomBytes,
  TransactionRequest,
  Wallet,
} from 'ethers';
import { randomUUID } from 'node:crypto';
import { registryOf, startTestChain, TestChain } from '../../../test/signer-test-chain';
import { ReceivedEvent, SignerTestService, startSignerTestService } from '../../../test/signer-test-service';
import type {
  GasSponsor,
  SponsoredPurpose,
  SponsoredSend,
  SponsoredSent,
  SponsoredTransactionStatus,
} from '../../sponsorship/gas-sponsor';

// Sponsored EVM steps against a real anvil, PostgreSQL and Kafka, with the real relayers: a submit
// never waits on the chain (a covered transaction whose gas drop is not mined yet is accepted, then
// broadcast by the confirmation tracker once it is), and a relayed step whose transaction the
// relayers give up on (dropped, cancelled under its fee ceiling, lost) fails with their code.
//
// What the relayers say about a transaction is scripted through the GasSponsor port
// (ScriptedGasSponsor around the real RelayerGasSponsor): the relaying side that produces
// `cancelled` and `lost` is being rewritten, and the signing flow only hears of it through the port.

const CHAIN = 'signer-it-sponsored';
const OWNER = 'sponsored-it';
const spender = '0x000000000000000000000000000000000000dEaD';
// ethers types `nonce` as a number; the payload carries it as a decimal string, which it takes.
const signable = (tx: object): TransactionRequest => tx as TransactionRequest;

/**
 * The relayers, with two levers for a spec: `status` answers what the spec set for a ledger id
 * (else the relayers' own answer), and a swap in `unsentSwaps` gets a relayed transaction that is
 * recorded nowhere and never broadcast (the node does not know its hash), so the spec decides its fate.
 */
class ScriptedGasSponsor implements GasSponsor {
  readonly statuses = new Map<string, SponsoredTransactionStatus>();
  readonly unsentSwaps = new Set<string>();

  constructor(private readonly relayersOf: () => GasSponsor) {}

  private get relayers(): GasSponsor {
    return this.relayersOf();
  }

  admit(owner: string, chain: string, estimatedCostWei: bigint): Promise<void> {
    return this.relayers.admit(owner, chain, estimatedCostWei);
  }

  async send(call: SponsoredSend): Promise<SponsoredSent> {
    if (!this.unsentSwaps.has(call.swapId)) return this.relayers.send(call);
    const sent = { id: `scripted-${randomUUID()}`, txHash: hexlify(randomBytes(32)) };
    this.statuses.set(sent.id, { state: 'pending', hashes: [sent.txHash], minedHash: null, failure: null });
    return sent;
  }

  async status(id: string): Promise<SponsoredTransactionStatus> {
    return this.statuses.get(id) ?? this.relayers.status(id);
  }

  findSent(swapId: string, stepIndex: number, purpose: SponsoredPurpose): Promise<SponsoredSent | null> {
    return this.relayers.findSent(swapId, stepIndex, purpose);
  }
}

let chain: TestChain;
let service: SignerTestService;
let sponsor: ScriptedGasSponsor;
let fixture: Interface;
let token: Contract;

beforeAll(async () => {
  chain = await startTestChain(CHAIN);
  service = await startSignerTestService(
    registryOf([{ id: CHAIN, chainId: chain.chainId, rpcUrl: chain.rpcUrl }]),
    {
      RELAYER_KEYS: JSON.stringify({ [CHAIN]: [chain.wallet(4).privateKey] }),
      // No fee bump while mining is paused: the gas drop keeps its one hash.
      RELAYER_STUCK_AFTER_MS: '600000',
    },
    { gasSponsor: (relayers) => (sponsor = new ScriptedGasSponsor(relayers)) },
  );
  fixture = new Interface(chain.fixtureAbi as never);
  token = new Contract(chain.fixtureAddress, chain.fixtureAbi as never, chain.provider);
}, 90_000);

afterAll(async () => {
  await service?.close();
  await chain?.stop();
});

const eventsOf = (swapId: string, type?: string): ReceivedEvent[] =>
  service.events.filter((e) => e.aggregateId === swapId && (type === undefined || e.type === type));

const nextEvent = (swapId: string, type: string, timeoutMs = 30_000) =>
  waitFor(() => eventsOf(swapId, type)[0], { timeoutMs, description: `${type} for ${swapId}` });

const submit = (swapId: string, rawTx: string) =>
  service.request<SigningSubmitResult>('signing.submit', swapId, { swapId, rawTx });

interface RequestRow {
  status: string;
  tx_hash: string | null;
  broadcast_at: Date | null;
  sponsored_tx_id: string | null;
  failure_code: string | null;
  failure_reason: string | null;
}

async function requestOf(swapId: string): Promise<RequestRow> {
  const [row] = (await service.dataSource.query(
    `SELECT status, tx_hash, broadcast_at, sponsored_tx_id, failure_code, failure_reason
       FROM "${service.schema}"."signing_requests" WHERE swap_id = $1 AND status <> 'superseded'`,
    [swapId],
  )) as RequestRow[];
  return row;
}

/** Anvil mines nothing until `resume`: no block on a transaction, none on a timer. */
async function pauseMining(): Promise<() => Promise<void>> {
  await chain.provider.send('evm_setAutomine', [false]);
  await chain.provider.send('evm_setIntervalMining', [0]);
  return async () => {
    await chain.provider.send('evm_setAutomine', [true]);
    await chain.provider.send('evm_mine', []); // what waited in the pool
  };
}

/** A sponsored EIP-2612 permit for `wallet`, signed as issued. */
async function preparedPermit(swapId: string, wallet: HDNodeWallet | Wallet): Promise<string> {
  await service.sendCommand('signing.prepare', swapId, {
    swapId,
    stepId: `${swapId}-step-1`,
    stepIndex: 1,
    stepCount: 2,
    kind: 'approve',
    chain: CHAIN,
    from: wallet.address,
    approve: { token: chain.fixtureAddress, spender, amount: '1000' },
    sponsored: {
      mode: 'eip2612-permit',
      permit: {
        token: chain.fixtureAddress,
        tokenName: 'SignerFixture',
        version: '1',
        spender,
        value: MaxUint256.toString(),
      },
    },
    owner: OWNER,
  });
  const ready = await nextEvent(swapId, 'signing.payload-ready');
  const { typedData } = ready.payload.payload as EvmTypedDataSigningPayload;
  const { domain, types, value } = ethersTypedDataArgs(typedData);
  return wallet.signTypedData(domain, types, value);
}

describe('sponsored EVM steps: a submit never waits on the chain', () => {
  it('a covered transaction whose gas drop is not mined is accepted at once, then broadcast and confirmed once mining resumes (30 s later)', async () => {
    const wallet = Wallet.createRandom().connect(chain.provider); // not one wei
    const swapId = `swp-${randomUUID()}`;
    const resume = await pauseMining();
    let resumed = false;
    const resumeLater = new Promise<RequestRow>((resolve, reject) => {
      setTimeout(() => {
        // What the step looks like after 30 s without a block, right before mining resumes.
        requestOf(swapId)
          .then(async (row) => {
            resumed = true;
            await resume();
            resolve(row);
          })
          .catch(reject);
      }, 30_000);
    });
    try {
      await service.sendCommand('signing.prepare', swapId, {
        swapId,
        stepId: `${swapId}-step-1`,
        stepIndex: 1,
        stepCount: 1,
        kind: 'approve',
        chain: CHAIN,
        from: wallet.address,
        call: {
          to: chain.fixtureAddress,
          data: fixture.encodeFunctionData('approve', [spender, 1000n]),
          value: '0',
        },
        approve: { token: chain.fixtureAddress, spender, amount: '1000' },
        sponsored: { mode: 'covered-transaction' },
        owner: OWNER,
      });
      const ready = await nextEvent(swapId, 'signing.payload-ready');
      const hints = ready.payload.executionHints as Record<string, string>;
      expect(hints).toMatchObject({ gasPaidBy: 'service' });
      const dropHash = hints.gasDropTxHash;
      expect(await chain.provider.getTransactionReceipt(dropHash)).toBeNull(); // in the pool only

      const signed = await wallet.signTransaction(
        signable((ready.payload.payload as EvmSigningPayload).transaction),
      );
      const result = await submit(swapId, signed);
      // Answered while no block could be mined: accepted, not sent (the node would refuse it for
      // lack of funds), the gas drop still waiting in the pool.
      expect(resumed).toBe(false);
      expect(result).toMatchObject({ swapId, stepIndex: 1, status: 'submitted' });
      expect(await requestOf(swapId)).toMatchObject({
        status: 'submitted',
        tx_hash: result.txHash,
        broadcast_at: null,
      });
      expect(await chain.provider.getTransaction(result.txHash)).toBeNull();
      expect(await chain.provider.getTransactionReceipt(dropHash)).toBeNull();
      expect((await nextEvent(swapId, 'signing.submitted')).payload).toMatchObject({ txHash: result.txHash });

      // 30 s without a block: still accepted and waiting, nothing failed, nothing sent.
      expect(await resumeLater).toMatchObject({
        status: 'submitted',
        broadcast_at: null,
        failure_code: null,
      });
      expect(eventsOf(swapId, 'signing.step-failed')).toHaveLength(0);

      const confirmed = await nextEvent(swapId, 'signing.step-confirmed');
      expect(confirmed.payload).toMatchObject({ swapId, stepIndex: 1, txHash: result.txHash });
      expect((await chain.provider.getTransactionReceipt(dropHash))?.status).toBe(1);
      expect((await chain.provider.getTransactionReceipt(result.txHash))?.status).toBe(1);
      expect((await requestOf(swapId)).broadcast_at).not.toBeNull();
      expect(await token.allowance(wallet.address, spender)).toBe(1000n);
      expect(await chain.provider.getBalance(wallet.address)).toBeGreaterThanOrEqual(0n);
      expect(eventsOf(swapId, 'signing.submitted')).toHaveLength(1);
    } finally {
      if (!resumed) await resume();
      await resumeLater.catch(() => undefined);
    }
  }, 120_000);

  it('a relayed permit is sent, not mined, before the answer; a relayer transaction recorded lost that the chain mines still confirms the step', async () => {
    const wallet = Wallet.createRandom();
    const swapId = `swp-${randomUUID()}`;
    const signature = await preparedPermit(swapId, wallet);
    const resume = await pauseMining();
    try {
      const result = await submit(swapId, signature);
      const row = await requestOf(swapId);
      expect(row).toMatchObject({ status: 'submitted', tx_hash: result.txHash });
      expect(row.broadcast_at).not.toBeNull();
      // Sent by the relayer, in the pool, in no block.
      expect(await chain.provider.getTransaction(result.txHash)).not.toBeNull();
      expect(await chain.provider.getTransactionReceipt(result.txHash)).toBeNull();

      // The relayers record it lost (as after a reorg); it is back in the pool and gets mined.
      sponsor.statuses.set(row.sponsored_tx_id!, {
        state: 'lost',
        hashes: [result.txHash],
        minedHash: null,
        failure: { code: 'RELAY_LOST', reason: 'its block was reorganised away' },
      });
    } finally {
      await resume();
    }
    const confirmed = await nextEvent(swapId, 'signing.step-confirmed');
    expect(confirmed.payload).toMatchObject({ swapId, stepIndex: 1 });
    expect(eventsOf(swapId, 'signing.step-failed')).toHaveLength(0);
    expect(await token.allowance(wallet.address, spender)).toBe(MaxUint256);
  });
});

describe('sponsored EVM steps: every one ends confirmed or failed with a stable reason', () => {
  it.each([
    ['dropped', 'RELAY_DROPPED', 'nonce 7 of the relayer was taken by 0xabc'],
    [
      'cancelled',
      'RELAY_FEE_CEILING',
      'not mined under its fee ceiling of 30 gwei; a zero-value replacement took nonce 7',
    ],
    ['lost', 'RELAY_LOST', 'recorded as mined in block 12, then the chain no longer had it'],
  ] as const)(
    'a relayed step whose transaction the relayers record %s fails with %s and their reason',
    async (state, code, reason) => {
      const wallet = Wallet.createRandom();
      const swapId = `swp-${randomUUID()}`;
      const signature = await preparedPermit(swapId, wallet);
      sponsor.unsentSwaps.add(swapId);
      const { txHash } = await submit(swapId, signature);
      const { sponsored_tx_id: id } = await requestOf(swapId);
      sponsor.statuses.set(id!, { state, hashes: [txHash], minedHash: null, failure: { code, reason } });

      const failed = await nextEvent(swapId, 'signing.step-failed');
      expect(failed.payload).toMatchObject({
        swapId,
        stepIndex: 1,
        chain: CHAIN,
        code,
        reason: `the relayer's transaction ${state} (${txHash}): ${reason}`,
        txHash,
      });
      expect(await requestOf(swapId)).toMatchObject({ status: 'failed', failure_code: code });
      expect(eventsOf(swapId, 'signing.step-confirmed')).toHaveLength(0);
    },
  );

  it("a covered step whose gas drop is cancelled before the wallet's transaction was sent fails with the drop's code, naming it", async () => {
    const wallet = Wallet.createRandom().connect(chain.provider);
    const swapId = `swp-${randomUUID()}`;
    const resume = await pauseMining();
    try {
      await service.sendCommand('signing.prepare', swapId, {
        swapId,
        stepId: `${swapId}-step-1`,
        stepIndex: 1,
        stepCount: 1,
        kind: 'swap',
        chain: CHAIN,
        from: wallet.address,
        call: {
          to: chain.fixtureAddress,
          data: fixture.encodeFunctionData('approve', [spender, 5n]),
          value: '0',
        },
        sponsored: { mode: 'covered-transaction' },
        owner: OWNER,
      });
      const ready = await nextEvent(swapId, 'signing.payload-ready');
      const dropHash = (ready.payload.executionHints as Record<string, string>).gasDropTxHash;
      const { txHash } = await submit(
        swapId,
        await wallet.signTransaction(signable((ready.payload.payload as EvmSigningPayload).transaction)),
      );
      const [{ gas_drop_id: dropId }] = (await service.dataSource.query(
        `SELECT gas_drop_id FROM "${service.schema}"."signing_requests" WHERE swap_id = $1`,
        [swapId],
      )) as Array<{ gas_drop_id: string }>;
      sponsor.statuses.set(dropId, {
        state: 'cancelled',
        hashes: [dropHash],
        minedHash: null,
        failure: { code: 'RELAY_FEE_CEILING', reason: 'not mined under its fee ceiling' },
      });

      const failed = await nextEvent(swapId, 'signing.step-failed');
      expect(failed.payload).toMatchObject({
        swapId,
        code: 'RELAY_FEE_CEILING',
        reason: `the gas drop to ${wallet.address} (${dropHash}) cancelled: not mined under its fee ceiling; the wallet's own transaction was not sent`,
        txHash,
      });
      expect(await chain.provider.getTransaction(txHash)).toBeNull(); // never sent
    } finally {
      await resume();
    }
  });
});
