import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Contract, parseUnits, Wallet } from 'ethers';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as btc from '@scure/btc-signer';
import {
  BITCOIN_NETWORKS,
  opReturnScript,
  parseThorchainOutboundMemo,
  type ThornodeQuoteSwap,
  type ThornodeTxStatus,
} from '@swapgw/chains/bitcoin-bridge';
import { REAL_NETWORK_CATALOG } from '@swapgw/chains';
import { freePort, waitFor } from '@swapgw/testing';
import { devnetWallet } from '../accounts';
import { DEVNET_MNEMONIC } from '../anvil';
import { bitcoinTestWallet } from '../bitcoin/bitcoin-keys';
import { signPayment } from '../bitcoin/bitcoin-wallet';
import { EsploraClient } from '../bitcoin/esplora-client';
import { localProvider } from '../evm-provider';
import { RunningMainnetReplica, startMainnetReplica } from './start-mainnet-replica';

// The replica's Bitcoin chain and THORChain between it and the EVM replicas, driven as THORChain's
// documentation tells a wallet to: a quote from THORNode, then the deposit it describes (BTC to the
// inbound address with the memo as OP_RETURN; USDC through the router's depositWithExpiry), the
// payout arriving and tx/status saying so with THORChain's OUT:<HASH>.
const usdcOf = (chain: string) =>
  REAL_NETWORK_CATALOG.find((e) => e.chain === chain)!.tokens.find((t) => t.symbol === 'USDC')!.address;
const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
];
const ROUTER = [
  'function depositWithExpiry(address vault, address asset, uint256 amount, string memo, uint256 expiration) payable',
];

describe('the mainnet replica’s Bitcoin chain and THORChain', () => {
  let replica: RunningMainnetReplica;
  let esplora: EsploraClient;
  let thornode: string;

  beforeAll(async () => {
    const manifestPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'btc-replica-')), 'manifest.json');
    replica = await startMainnetReplica({
      manifestPath,
      portEthereum: await freePort(),
      portBase: await freePort(),
      portArbitrum: await freePort(),
      portSolana: 0,
      portBitcoin: 0,
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const bitcoin = replica.manifest.mainnetReplica.bitcoin!;
    esplora = new EsploraClient(bitcoin.esploraUrl);
    thornode = bitcoin.thorchain.thornodeUrl;
  }, 300_000);

  afterAll(() => replica?.stop());

  const satsOf = async (address: string) =>
    (await esplora.utxos(address)).reduce((sum, u) => sum + BigInt(u.value), 0n);
  const get = async <T>(url: string) => (await (await fetch(url)).json()) as T;
  const rpcOf = (chain: string) => replica.manifest.mainnetReplica.evm.find((c) => c.id === chain)!;

  it('funds the test wallets at m/84, m/86 and m/49 of the test mnemonic with 5 BTC each, on mainnet addresses', async () => {
    const bitcoin = replica.manifest.mainnetReplica.bitcoin!;
    expect(bitcoin).toMatchObject({ id: 'bitcoin', network: 'mainnet' });
    for (const [kind, accounts, prefix] of [
      ['p2wpkh', bitcoin.accounts, 'bc1q'],
      ['p2tr', bitcoin.taprootAccounts, 'bc1p'],
      ['p2sh-p2wpkh', bitcoin.nestedSegwitAccounts, '3'],
    ] as const) {
      expect(accounts.map((a) => a.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      for (const account of accounts) {
        expect(account.address).toBe(bitcoinTestWallet(kind, account.index, 'mainnet').address);
        expect(account.address.startsWith(prefix)).toBe(true);
      }
      expect(await satsOf(accounts[0].address)).toBe(500_000_000n);
    }
    // Esplora refuses an address of another network, as mainnet's does.
    const regtest = bitcoinTestWallet('p2wpkh', 1, 'regtest').address;
    const refused = await fetch(`${bitcoin.esploraUrl}/address/${regtest}/utxo`);
    expect(refused.status).toBe(400);
  });

  it('BTC → USDC on base: the quoted deposit to the BTC vault is paid by the vault’s transferOut on base, tx/status completed with OUT:<HASH>', async () => {
    const recipient = Wallet.createRandom().address;
    const quote = await get<ThornodeQuoteSwap>(
      `${thornode}/thorchain/quote/swap?from_asset=BTC.BTC&to_asset=BASE.USDC-${usdcOf('base').toUpperCase()}&amount=1000000&destination=${recipient}`,
    );
    expect(quote.inbound_address).toBe(replica.manifest.mainnetReplica.bitcoin!.thorchain.bitcoinVault);
    const wallet = bitcoinTestWallet('p2wpkh', 8, 'mainnet');
    const coins = (await esplora.utxos(wallet.address)).map((u) => ({ ...u, value: BigInt(u.value) }));
    const payment = signPayment({
      key: wallet.key,
      coins,
      outputs: [
        { address: quote.inbound_address!, amount: 1_000_000n },
        { script: opReturnScript(quote.memo!), amount: 0n },
      ],
      fee: 2_000n,
    });
    await esplora.broadcast(payment.hex);
    const usdc = new Contract(usdcOf('base'), ERC20, localProvider(rpcOf('base').rpcUrl, 8453));
    const paid = await waitFor(
      async () => {
        const balance = (await usdc.getFunction('balanceOf')(recipient)) as bigint;
        return balance > 0n ? balance : null;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'USDC on base' },
    );
    expect(paid * 100n).toBe(BigInt(quote.expected_amount_out));
    const status = await get<ThornodeTxStatus>(`${thornode}/thorchain/tx/status/${payment.txid}`);
    expect(status.stages.outbound_signed).toEqual({ completed: true });
    expect(parseThorchainOutboundMemo(status.out_txs![0].memo!)).toEqual({
      kind: 'out',
      inboundHash: payment.txid.toUpperCase(),
    });
  });

  it('USDC on arbitrum → BTC: depositWithExpiry through the router to the vault pays a bc1p address from the BTC vault, tx/status completed', async () => {
    const recipient = btc.p2tr(
      secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true).subarray(1),
      undefined,
      BITCOIN_NETWORKS.mainnet,
    ).address!;
    const amount = parseUnits('900', 6);
    const quote = await get<ThornodeQuoteSwap>(
      `${thornode}/thorchain/quote/swap?from_asset=ARB.USDC-${usdcOf('arbitrum').toUpperCase()}&to_asset=BTC.BTC&amount=${amount * 100n}&destination=${recipient}`,
    );
    const sender = devnetWallet(DEVNET_MNEMONIC, 8, localProvider(rpcOf('arbitrum').rpcUrl, 42161));
    await (
      await new Contract(usdcOf('arbitrum'), ERC20, sender).getFunction('approve')(quote.router, amount)
    ).wait();
    const deposit = await (
      await new Contract(quote.router!, ROUTER, sender).getFunction('depositWithExpiry')(
        quote.inbound_address,
        usdcOf('arbitrum'),
        amount,
        quote.memo,
        quote.expiry,
      )
    ).wait();
    const sats = await waitFor(async () => ((await satsOf(recipient)) > 0n ? satsOf(recipient) : null), {
      timeoutMs: 30_000,
      intervalMs: 250,
      description: 'BTC at the bc1p recipient',
    });
    expect(sats).toBe(BigInt(quote.expected_amount_out));
    const status = await get<ThornodeTxStatus>(`${thornode}/thorchain/tx/status/${deposit.hash}`);
    expect(status.stages.outbound_signed).toEqual({ completed: true });
    expect(status.out_txs![0]).toMatchObject({ chain: 'BTC', to_address: recipient });
  });
});
