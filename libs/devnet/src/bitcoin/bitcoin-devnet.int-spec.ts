import * as btc from '@scure/btc-signer';
import { BitcoinDevnetHandle, startBitcoinDevnet } from './bitcoin-devnet';
import { bitcoinDevnetKey } from './bitcoin-keys';
import { pushOf } from './bitcoin-script';
import { p2shP2wpkhOf, p2trOf, signPayment, SpendableCoin } from './bitcoin-wallet';
import { EsploraClient, EsploraTransaction, EsploraUtxo } from './esplora-client';

// The chain as a wallet sees it: over HTTP only, through the Esplora API.

const BTC = 100_000_000n;

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('local Bitcoin devnet (Esplora API)', () => {
  let devnet: BitcoinDevnetHandle;
  let esplora: EsploraClient;
  let url: string;

  const post = (path: string, body = '') => fetch(`${url}${path}`, { method: 'POST', body });
  const mine = async () => {
    const response = await post('/devnet/mine');
    expect(response.status).toBe(200);
    return ((await response.json()) as { height: number; hash: string }[])[0];
  };
  const coinsOf = async (address: string): Promise<SpendableCoin[]> =>
    (await esplora.utxos(address)).map((u) => ({ txid: u.txid, vout: u.vout, value: BigInt(u.value) }));
  /** POST /tx expecting a refusal: the status and bitcoind's error as esplora relays it. */
  const refused = async (hex: string) => {
    const response = await post('/tx', hex);
    const text = await response.text();
    const json = /^sendrawtransaction RPC error: (\{.*\})$/.exec(text);
    return {
      status: response.status,
      text,
      error: json ? (JSON.parse(json[1]) as { code: number; message: string }) : undefined,
    };
  };

  beforeAll(async () => {
    devnet = await startBitcoinDevnet({ port: 0, blockMs: 200, bridgeFeeBps: 5 });
    url = devnet.manifest.esploraUrl;
    esplora = new EsploraClient(url);
    // Blocks come when a test asks, so "in the mempool" holds until it looks.
    expect((await post('/devnet/miner/pause')).status).toBe(200);
  });
  afterAll(async () => devnet?.stop());

  it('funds the test wallets, the fee wallets and the bridge vault with mature coins', async () => {
    const wallet = devnet.manifest.accounts.find((a) => a.index === 1)!;
    expect(wallet.address).toBe(bitcoinDevnetKey('wallet', 1).address);
    expect(wallet.address).toMatch(/^bcrt1q/);
    const utxos = await esplora.utxos(wallet.address);
    expect(utxos).toHaveLength(5);
    expect(utxos.every((u) => u.value === 100_000_000 && u.status.confirmed)).toBe(true);

    const feeWallet = await esplora.utxos(devnet.manifest.feeWallets[1].address);
    expect(feeWallet).toHaveLength(25);
    expect(feeWallet.reduce((sum, u) => sum + u.value, 0)).toBe(100_000_000);

    const vault = await esplora.json<{ chain_stats: { funded_txo_sum: number } }>(
      `/address/${devnet.manifest.bridge.vault}`,
    );
    expect(vault.chain_stats.funded_txo_sum).toBe(50 * 100_000_000);
    // The funding coinbase is more than 100 blocks deep: spendable.
    expect(await esplora.tipHeight()).toBeGreaterThanOrEqual(101);
  });

  it('accepts a signed P2WPKH payment into the mempool, then mines it', async () => {
    const from = bitcoinDevnetKey('wallet', 1);
    const to = bitcoinDevnetKey('wallet', 2).address;
    const coins = await coinsOf(from.address);
    const payment = signPayment({
      key: from,
      coins: coins.slice(0, 1),
      outputs: [{ address: to, amount: 25_000_000n }],
      fee: 1_000n,
    });
    const heightBefore = await esplora.tipHeight();

    expect(await esplora.broadcast(payment.hex)).toBe(payment.txid);
    const pending = await esplora.json<EsploraTransaction>(`/tx/${payment.txid}`);
    expect(pending.status).toEqual({ confirmed: false });
    expect(pending.fee).toBe(1_000);
    expect(pending.vin[0]).toMatchObject({
      txid: coins[0].txid,
      vout: coins[0].vout,
      prevout: { scriptpubkey_type: 'v0_p2wpkh', scriptpubkey_address: from.address, value: 100_000_000 },
      is_coinbase: false,
    });
    expect(pending.vin[0].witness).toHaveLength(2);
    expect(pending.vout[0]).toMatchObject({ scriptpubkey_address: to, value: 25_000_000 });
    expect(await esplora.text(`/tx/${payment.txid}/hex`)).toBe(payment.hex);
    const mempoolStats = await esplora.json<{ mempool_stats: { funded_txo_sum: number; tx_count: number } }>(
      `/address/${to}`,
    );
    expect(mempoolStats.mempool_stats).toMatchObject({ funded_txo_sum: 25_000_000, tx_count: 1 });
    expect((await esplora.utxos(to)).find((u) => u.txid === payment.txid)?.status).toEqual({
      confirmed: false,
    });

    const block = await mine();
    const status = await esplora.json<EsploraUtxo['status']>(`/tx/${payment.txid}/status`);
    expect(status).toEqual({
      confirmed: true,
      block_height: heightBefore + 1,
      block_hash: block.hash,
      block_time: expect.any(Number),
    });
    expect(await esplora.tipHeight()).toBe(heightBefore + 1);
    expect(await esplora.text(`/block-height/${heightBefore + 1}`)).toBe(block.hash);
    const header = await esplora.json<{
      id: string;
      height: number;
      tx_count: number;
      previousblockhash: string;
    }>(`/block/${block.hash}`);
    expect(header).toMatchObject({ id: block.hash, height: heightBefore + 1, tx_count: 2 });
    expect(header.previousblockhash).toBe(await esplora.text(`/block-height/${heightBefore}`));
    expect(await esplora.json(`/tx/${coins[0].txid}/outspend/${coins[0].vout}`)).toMatchObject({
      spent: true,
      txid: payment.txid,
      vin: 0,
    });
    const [newest] = await esplora.json<EsploraTransaction[]>(`/address/${to}/txs`);
    expect(newest.txid).toBe(payment.txid);
  });

  it('mines on its timer, taking the mempool', async () => {
    const from = bitcoinDevnetKey('wallet', 9);
    const payment = signPayment({
      key: from,
      coins: (await coinsOf(from.address)).slice(0, 1),
      outputs: [{ address: from.address, amount: 10_000_000n }],
      fee: 500n,
    });
    await esplora.broadcast(payment.hex);
    await post('/devnet/miner/resume');
    try {
      await waitFor(
        async () =>
          (await esplora.json<EsploraUtxo['status']>(`/tx/${payment.txid}/status`)).confirmed
            ? true
            : undefined,
        'the timer to mine the payment',
      );
    } finally {
      await post('/devnet/miner/pause');
    }
  });

  it('accepts a P2TR key-path spend of an unconfirmed output (a chain of two)', async () => {
    const key = bitcoinDevnetKey('wallet', 3);
    const taproot = p2trOf(key);
    const toTaproot = signPayment({
      key,
      coins: (await coinsOf(key.address)).slice(0, 1),
      outputs: [{ address: taproot.address, amount: 40_000_000n }],
      fee: 1_000n,
    });
    await esplora.broadcast(toTaproot.hex);
    expect(taproot.address).toMatch(/^bcrt1p/);
    const fromTaproot = signPayment({
      key,
      taproot: true,
      coins: [{ txid: toTaproot.txid, vout: 0, value: 40_000_000n }],
      outputs: [{ address: bitcoinDevnetKey('wallet', 4).address, amount: 39_000_000n }],
      fee: 1_000n,
    });
    expect(await esplora.broadcast(fromTaproot.hex)).toBe(fromTaproot.txid);
    const spent = await esplora.json<EsploraTransaction>(`/tx/${fromTaproot.txid}`);
    expect(spent.vin[0].prevout).toMatchObject({
      scriptpubkey_type: 'v1_p2tr',
      scriptpubkey_address: taproot.address,
    });
    await mine();
    expect((await esplora.json<EsploraTransaction>(`/tx/${fromTaproot.txid}`)).status.confirmed).toBe(true);
    expect((await esplora.json<EsploraTransaction>(`/tx/${toTaproot.txid}`)).status.confirmed).toBe(true);
  });

  it('accepts a nested SegWit (P2SH-P2WPKH) spend, its coins and balance listed at its 2… address', async () => {
    const key = bitcoinDevnetKey('wallet', 2);
    const nested = p2shP2wpkhOf(key);
    expect(nested.address).toMatch(/^2/);
    expect(Buffer.from(nested.redeemScript).equals(Buffer.from(key.script))).toBe(true);
    const coin = (await coinsOf(key.address)).find((c) => c.value === BTC)!;
    const funding = signPayment({
      key,
      coins: [coin],
      outputs: [
        { address: nested.address, amount: 30_000_000n },
        { address: nested.address, amount: 20_000_000n },
      ],
      fee: 1_000n,
    });
    await esplora.broadcast(funding.hex);
    const pendingCoins = await esplora.utxos(nested.address);
    expect(pendingCoins.map((u) => [u.txid, u.vout, u.value, u.status.confirmed])).toEqual([
      [funding.txid, 0, 30_000_000, false],
      [funding.txid, 1, 20_000_000, false],
    ]);
    await mine();
    const funded = await esplora.json<{
      address: string;
      chain_stats: { funded_txo_sum: number; spent_txo_sum: number; tx_count: number };
    }>(`/address/${nested.address}`);
    expect(funded).toMatchObject({
      address: nested.address,
      chain_stats: { funded_txo_sum: 50_000_000, spent_txo_sum: 0, tx_count: 1 },
    });

    const to = bitcoinDevnetKey('wallet', 6).address;
    const spend = signPayment({
      key,
      addressKind: 'p2sh-p2wpkh',
      coins: await coinsOf(nested.address),
      outputs: [{ address: to, amount: 45_000_000n }],
      fee: 2_000n,
    });
    expect(await esplora.broadcast(spend.hex)).toBe(spend.txid);
    const pending = await esplora.json<EsploraTransaction>(`/tx/${spend.txid}`);
    expect(pending.vin).toHaveLength(2);
    expect(pending.vin[0]).toMatchObject({
      prevout: { scriptpubkey_type: 'p2sh', scriptpubkey_address: nested.address, value: 30_000_000 },
      // The scriptSig is the one push of the redeem script `OP_0 <key hash>`.
      scriptsig: `16${Buffer.from(nested.redeemScript).toString('hex')}`,
      scriptsig_asm: `OP_PUSHBYTES_22 ${Buffer.from(nested.redeemScript).toString('hex')}`,
      inner_redeemscript_asm: `OP_0 OP_PUSHBYTES_20 ${Buffer.from(key.script.subarray(2)).toString('hex')}`,
    });
    expect(pending.vin[0].witness).toHaveLength(2);
    expect(pending.vin[0].witness![1]).toBe(Buffer.from(key.publicKey).toString('hex'));
    // BIP141 weight: the scriptSig bytes are non-witness bytes, 4 weight units each.
    const tx = btc.Transaction.fromRaw(Buffer.from(spend.hex, 'hex'));
    const stripped = tx.toBytes(true, false).length;
    expect(pending.weight).toBe(3 * stripped + spend.hex.length / 2);
    expect(Math.ceil(pending.weight / 4)).toBe(spend.vsize);
    expect(await esplora.json<{ vsize: number }>('/mempool')).toMatchObject({ vsize: spend.vsize });
    expect(pending.fee).toBe(2_000);

    await mine();
    expect(await esplora.utxos(nested.address)).toEqual([]);
    const spent = await esplora.json<{
      chain_stats: {
        funded_txo_sum: number;
        spent_txo_count: number;
        spent_txo_sum: number;
        tx_count: number;
      };
    }>(`/address/${nested.address}`);
    expect(spent.chain_stats).toEqual(
      expect.objectContaining({
        funded_txo_sum: 50_000_000,
        spent_txo_count: 2,
        spent_txo_sum: 50_000_000,
        tx_count: 2,
      }),
    );
    expect((await esplora.json<EsploraTransaction>(`/tx/${spend.txid}`)).status.confirmed).toBe(true);
  });

  it('refuses a nested SegWit spend with a wrong redeem script, extra pushes, another key’s signature or no witness, and a scriptSig on a native witness spend', async () => {
    const key = bitcoinDevnetKey('wallet', 2);
    const stranger = bitcoinDevnetKey('wallet', 6);
    const nested = p2shP2wpkhOf(key);
    const coin = (await coinsOf(key.address)).find((c) => c.value === BTC)!;
    const funding = signPayment({
      key,
      coins: [coin],
      outputs: [{ address: nested.address, amount: 10_000_000n }],
      fee: 1_000n,
    });
    await esplora.broadcast(funding.hex);
    const nestedCoin = { txid: funding.txid, vout: 0, value: 10_000_000n };
    const pay = (signer = key) =>
      signPayment({
        key: signer,
        addressKind: 'p2sh-p2wpkh',
        coins: [nestedCoin],
        outputs: [{ address: stranger.address, amount: 5_000_000n }],
        fee: 1_000n,
      });
    /** The signed payment with its input's scriptSig and witness edited. */
    const edited = (hex: string, edit: (input: { scriptSig: Uint8Array; witness: Uint8Array[] }) => void) => {
      const raw = btc.RawTx.decode(Buffer.from(hex, 'hex'));
      const input = { scriptSig: raw.inputs[0].finalScriptSig, witness: raw.witnesses![0] };
      edit(input);
      raw.inputs[0].finalScriptSig = input.scriptSig;
      raw.witnesses![0] = input.witness;
      raw.segwitFlag = raw.witnesses!.some((w) => w.length > 0);
      return Buffer.from(btc.RawTx.encode(raw)).toString('hex');
    };
    const failure = (reason: string) => ({
      code: -26,
      message: `mandatory-script-verify-flag-failed (${reason}), input 0`,
    });

    // The stranger's redeem script: its HASH160 is not the output's script hash.
    const wrongRedeemScript = edited(pay().hex, (input) => {
      input.scriptSig = pushOf(p2shP2wpkhOf(stranger).redeemScript);
    });
    expect((await refused(wrongRedeemScript)).error).toEqual(
      failure('Script evaluated without error but finished with a false/empty top stack element'),
    );
    // Signed by the stranger (its own redeem script), then given the owner's redeem script: its key
    // does not hash to the program.
    const strangersKey = edited(pay(stranger).hex, (input) => {
      input.scriptSig = pushOf(nested.redeemScript);
    });
    expect((await refused(strangersKey)).error).toEqual(failure('Witness program hash mismatch'));
    // The stranger's signature under the owner's key.
    const strangersSignature = edited(pay(stranger).hex, (input) => {
      input.scriptSig = pushOf(nested.redeemScript);
      input.witness = [input.witness[0], key.publicKey];
    });
    expect((await refused(strangersSignature)).error).toEqual(
      failure('Signature must be zero for failed CHECK(MULTI)SIG operation'),
    );
    // A push before the redeem script: the scriptSig must be the redeem script's push alone.
    const extraPush = edited(pay().hex, (input) => {
      input.scriptSig = Buffer.concat([pushOf(Uint8Array.of(1, 2, 3)), input.scriptSig]);
    });
    expect((await refused(extraPush)).error).toEqual(failure('Witness requires only-redeemscript scriptSig'));
    const notPushOnly = edited(pay().hex, (input) => {
      input.scriptSig = Buffer.concat([input.scriptSig, Uint8Array.of(0x75)]);
    });
    expect((await refused(notPushOnly)).error).toEqual({ code: -26, message: 'scriptsig-not-pushonly' });
    const noScriptSig = edited(pay().hex, (input) => {
      input.scriptSig = new Uint8Array();
    });
    expect((await refused(noScriptSig)).error).toEqual({ code: -26, message: 'bad-txns-nonstandard-inputs' });
    const noWitness = edited(pay().hex, (input) => {
      input.witness = [];
    });
    expect((await refused(noWitness)).error).toEqual(failure('Witness program hash mismatch'));

    // A native P2WPKH spend carrying a scriptSig: its witness alone spends it.
    const native = signPayment({
      key,
      coins: [{ txid: funding.txid, vout: 1, value: BTC - 10_000_000n - 1_000n }],
      outputs: [{ address: stranger.address, amount: 5_000_000n }],
      fee: 1_000n,
    });
    const withScriptSig = edited(native.hex, (input) => {
      input.scriptSig = pushOf(key.script);
    });
    expect((await refused(withScriptSig)).error).toEqual(failure('Witness requires empty scriptSig'));
    const nativeNoWitness = edited(native.hex, (input) => {
      input.witness = [];
    });
    expect((await refused(nativeNoWitness)).error).toEqual(failure('Witness program hash mismatch'));

    // The unedited payments are good: nothing above reached the mempool.
    expect(await esplora.json(`/tx/${funding.txid}/outspend/0`)).toEqual({ spent: false });
    expect(await esplora.broadcast(pay().hex)).toBe(pay().txid);
    expect(await esplora.broadcast(native.hex)).toBe(native.txid);
    await mine();
  });

  it('refuses a double spend, and takes a BIP125 replacement paying more, evicting the original', async () => {
    const key = bitcoinDevnetKey('wallet', 5);
    const [coin, other] = await coinsOf(key.address);
    const pay = (amount: bigint, fee: bigint, sequence?: number) =>
      signPayment({
        key,
        coins: [coin],
        outputs: [{ address: bitcoinDevnetKey('wallet', 6).address, amount }],
        fee,
        sequence,
      });

    const final = pay(10_000_000n, 1_000n, 0xffffffff);
    await esplora.broadcast(final.hex);
    const conflict = await refused(pay(20_000_000n, 5_000n).hex);
    expect(conflict).toMatchObject({ status: 400, error: { code: -26, message: 'txn-mempool-conflict' } });
    expect(conflict.text).toBe('sendrawtransaction RPC error: {"code":-26,"message":"txn-mempool-conflict"}');

    const replaceable = signPayment({
      key,
      coins: [other],
      outputs: [{ address: key.address, amount: 10_000_000n }],
      fee: 300n,
    });
    await esplora.broadcast(replaceable.hex);
    const cheaper = signPayment({
      key,
      coins: [other],
      outputs: [{ address: key.address, amount: 10_000_000n }],
      fee: 200n,
    });
    expect((await refused(cheaper.hex)).error?.message).toMatch(/^insufficient fee, rejecting replacement/);
    const replacement = signPayment({
      key,
      coins: [other],
      outputs: [{ address: key.address, amount: 10_000_000n }],
      fee: 2_000n,
    });
    expect(await esplora.broadcast(replacement.hex)).toBe(replacement.txid);
    expect((await fetch(`${url}/tx/${replaceable.txid}`)).status).toBe(404);
    await mine();
    expect((await esplora.json<EsploraTransaction>(`/tx/${replacement.txid}`)).status.confirmed).toBe(true);
    // Spent in a block now: missing or spent, as bitcoind says.
    expect((await refused(pay(1_000_000n, 10_000n).hex)).error).toEqual({
      code: -25,
      message: 'bad-txns-inputs-missingorspent',
    });
  });

  it('refuses a wrong signature, another key’s signature, an unknown input, outputs above inputs, dust and a fee under 1 sat/vB', async () => {
    const key = bitcoinDevnetKey('wallet', 7);
    const stranger = bitcoinDevnetKey('wallet', 8);
    const [coin] = await coinsOf(key.address);
    const to = stranger.address;

    // Signed for another amount: BIP143 commits to the amount spent, so the signature fails.
    const wrongAmount = signPayment({
      key,
      coins: [{ ...coin, value: coin.value + 1n }],
      outputs: [{ address: to, amount: 1_000_000n }],
      fee: 1_000n,
    });
    expect((await refused(wrongAmount.hex)).error).toEqual({
      code: -26,
      message:
        'mandatory-script-verify-flag-failed (Signature must be zero for failed CHECK(MULTI)SIG operation), input 0',
    });

    // Another key's signature and public key: the key does not hash to the output's program.
    const otherKey = signPayment({
      key: stranger,
      coins: [coin],
      outputs: [{ address: to, amount: 1_000_000n }],
      fee: 1_000n,
    });
    expect((await refused(otherKey.hex)).error?.message).toBe(
      'mandatory-script-verify-flag-failed (Witness program hash mismatch), input 0',
    );

    // Another key's signature under the owner's public key.
    const raw = btc.RawTx.decode(Buffer.from(otherKey.hex, 'hex'));
    raw.witnesses![0][1] = key.publicKey;
    const swapped = Buffer.from(btc.RawTx.encode(raw)).toString('hex');
    expect((await refused(swapped)).error?.message).toMatch(
      /^mandatory-script-verify-flag-failed \(Signature must be zero/,
    );

    const unknown = signPayment({
      key,
      coins: [{ txid: 'ab'.repeat(32), vout: 0, value: BTC }],
      outputs: [{ address: to, amount: 1_000_000n }],
      fee: 1_000n,
    });
    expect(await refused(unknown.hex)).toMatchObject({
      status: 400,
      error: { code: -25, message: 'bad-txns-inputs-missingorspent' },
    });

    const tooMuch = signPayment({
      key,
      coins: [{ ...coin, value: 2n * BTC }],
      outputs: [{ address: to, amount: 2n * BTC - 1_000n }],
      fee: 1_000n,
    });
    expect((await refused(tooMuch.hex)).error).toEqual({
      code: -26,
      message: `bad-txns-in-belowout, ${BTC} < ${2n * BTC - 1_000n}`,
    });

    const dust = signPayment({ key, coins: [coin], outputs: [{ address: to, amount: 293n }], fee: 1_000n });
    expect((await refused(dust.hex)).error).toEqual({ code: -26, message: 'dust' });

    const cheap = signPayment({
      key,
      coins: [coin],
      outputs: [{ address: to, amount: 1_000_000n }],
      fee: 50n,
    });
    expect((await refused(cheap.hex)).error?.message).toMatch(/^min relay fee not met, 50 < \d+$/);

    const oversizedMemo = signPayment({
      key,
      coins: [coin],
      outputs: [{ script: btc.Script.encode(['RETURN', new Uint8Array(81)]), amount: 0n }],
      fee: 1_000n,
    });
    expect((await refused(oversizedMemo.hex)).error).toEqual({ code: -26, message: 'scriptpubkey' });

    expect((await refused('00ff')).error?.code).toBe(-22);
    // None of it reached the mempool: the coin is still unspent.
    expect(await esplora.json(`/tx/${coin.txid}/outspend/${coin.vout}`)).toEqual({ spent: false });
  });

  it('answers 404 Transaction not found for an unknown txid', async () => {
    const response = await fetch(`${url}/tx/${'cd'.repeat(32)}`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Transaction not found');
  });

  it('leaves a transaction under the miner’s fee-rate floor unconfirmed until the floor is lowered', async () => {
    const estimates = await esplora.json<Record<string, number>>('/fee-estimates');
    for (const target of ['1', '2', '3', '6', '25', '144', '504', '1008']) expect(estimates[target]).toBe(1);

    const floor = await post('/devnet/miner/min-fee-rate', JSON.stringify({ satsPerVbyte: 20 }));
    expect(await floor.json()).toMatchObject({ minFeeRate: 20, paused: true });
    expect((await esplora.json<Record<string, number>>('/fee-estimates'))['1']).toBe(20);

    const key = bitcoinDevnetKey('wallet', 4);
    const coin = (await coinsOf(key.address)).find((c) => c.value === BTC)!;
    const lowFee = signPayment({
      key,
      coins: [coin],
      outputs: [{ address: key.address, amount: 50_000_000n }],
      fee: 1_000n,
    });
    expect(lowFee.fee / BigInt(lowFee.vsize)).toBeLessThan(20n);
    await esplora.broadcast(lowFee.hex);
    await mine();
    await mine();
    expect((await esplora.json<EsploraUtxo['status']>(`/tx/${lowFee.txid}/status`)).confirmed).toBe(false);

    await post('/devnet/miner/min-fee-rate', JSON.stringify({ satsPerVbyte: 1 }));
    await mine();
    expect((await esplora.json<EsploraUtxo['status']>(`/tx/${lowFee.txid}/status`)).confirmed).toBe(true);
  });
  it('mines by ancestor-package fee rate: a parent under a raised floor waits, then goes in with a child paying for both (CPFP), parent first', async () => {
    const key = bitcoinDevnetKey('wallet', 7);
    const [coin, lone] = (await coinsOf(key.address)).filter((c) => c.value === BTC);
    const parent = signPayment({
      key,
      coins: [coin],
      outputs: [{ address: bitcoinDevnetKey('wallet', 8).address, amount: 10_000_000n }],
      fee: 200n,
    });
    expect(Number(parent.fee) / parent.vsize).toBeLessThan(2);
    // A high-fee transaction of its own: it must not carry the parent along.
    const rich = signPayment({
      key,
      coins: [lone],
      outputs: [{ address: key.address, amount: 10_000_000n }],
      fee: 5_000n,
    });
    await esplora.broadcast(parent.hex);
    await esplora.broadcast(rich.hex);
    await post('/devnet/miner/min-fee-rate', JSON.stringify({ satsPerVbyte: 10 }));
    try {
      expect((await esplora.json<Record<string, number>>('/fee-estimates'))['1']).toBe(10);
      const first = await mine();
      expect(await esplora.json<string[]>(`/block/${first.hash}/txids`)).toContain(rich.txid);
      expect((await esplora.json<EsploraUtxo['status']>(`/tx/${parent.txid}/status`)).confirmed).toBe(false);

      // The child spends the parent's change (its last output) and pays so that the package's rate,
      // fees of both / vsize of both, is 12 sat/vB: alone the parent stays under the floor.
      const change = { txid: parent.txid, vout: 1, value: coin.value - 10_000_000n - parent.fee };
      const childSize = signPayment({
        key,
        coins: [change],
        outputs: [{ address: key.address, amount: 1_000_000n }],
        fee: 0n,
      }).vsize;
      const childFee = BigInt(12 * (parent.vsize + childSize)) - parent.fee;
      const child = signPayment({
        key,
        coins: [change],
        outputs: [{ address: key.address, amount: 1_000_000n }],
        fee: childFee,
      });
      expect(child.vsize).toBe(childSize);
      await esplora.broadcast(child.hex);
      const packageRate = Number(parent.fee + child.fee) / (parent.vsize + child.vsize);
      expect(packageRate).toBeGreaterThanOrEqual(10);

      const second = await mine();
      const txids = await esplora.json<string[]>(`/block/${second.hash}/txids`);
      expect(txids.indexOf(parent.txid)).toBeGreaterThan(0);
      expect(txids.indexOf(child.txid)).toBe(txids.indexOf(parent.txid) + 1);
      expect(await esplora.json<string[]>('/mempool/txids')).toEqual([]);
    } finally {
      await post('/devnet/miner/min-fee-rate', JSON.stringify({ satsPerVbyte: 1 }));
    }
  });

  it('never mines a low-fee child with its high-fee parent: each package on its own rate', async () => {
    const key = bitcoinDevnetKey('wallet', 9);
    const coin = (await coinsOf(key.address)).find((c) => c.value === BTC)!;
    const parent = signPayment({
      key,
      coins: [coin],
      outputs: [{ address: key.address, amount: 50_000_000n }],
      fee: 5_000n,
    });
    await esplora.broadcast(parent.hex);
    const child = signPayment({
      key,
      coins: [{ txid: parent.txid, vout: 0, value: 50_000_000n }],
      outputs: [{ address: key.address, amount: 40_000_000n }],
      fee: 200n,
    });
    await esplora.broadcast(child.hex);
    await post('/devnet/miner/min-fee-rate', JSON.stringify({ satsPerVbyte: 10 }));
    try {
      const block = await mine();
      const txids = await esplora.json<string[]>(`/block/${block.hash}/txids`);
      expect(txids).toContain(parent.txid);
      expect(txids).not.toContain(child.txid);
      expect(await esplora.json<string[]>('/mempool/txids')).toEqual([child.txid]);
    } finally {
      await post('/devnet/miner/min-fee-rate', JSON.stringify({ satsPerVbyte: 1 }));
      await mine();
    }
  });
});
