import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64 } from '@scure/base';
import {
  buildCosmosSignDoc,
  CCTP_DOMAINS,
  cosmosRecipientBytes32,
  decodeMsgDepositForBurn,
  depositForBurnMsg,
  encodeMsgDepositForBurn,
  NOBLE_BRIDGE_CHAIN_ID,
} from '@swapgw/chains/families';
import { SOLANA_BRIDGE_CHAIN_ID, solanaDepositNonce } from '@swapgw/chains/solana-bridge';
import bs58 from 'bs58';
import {
  BITCOIN_BRIDGE_CHAIN_ID,
  bitcoinDepositNonce,
  bitcoinRecipientToBytes32,
} from '@swapgw/chains/bitcoin-bridge';
import { SignDoc, TxBody, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { Keypair } from '@solana/web3.js';
import { CosmosChain, DEFAULT_MESSAGE_HANDLERS } from './cosmos-chain';
import { COSMOS_DEVNET_CHAINS } from './cosmos-chain-spec';
import { nobleCctpParams, NOBLE_DEVNET_ID } from './cosmos-devnet';
import { msgDepositForBurnHandler } from './cosmos-cctp';
import { cosmosDevnetKey } from './cosmos-keys';
import { messageRegistry } from './cosmos-messages';
import { NobleBridgeEndpoint } from './noble-bridge-endpoint';
import { RecordingLogger } from '../bridge/recording-logger';

const noble = COSMOS_DEVNET_CHAINS.find((spec) => spec.id === NOBLE_DEVNET_ID)!;
const DEVNET_A = 31337;
const BITCOIN_DOMAIN = 0x425443;
const params = nobleCctpParams([DEVNET_A, CCTP_DOMAINS.solana, BITCOIN_DOMAIN]);
const EVM_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

function nobleChain() {
  const chain = new CosmosChain(
    noble,
    messageRegistry([...DEFAULT_MESSAGE_HANDLERS, msgDepositForBurnHandler(params)]),
  );
  const wallet = cosmosDevnetKey('noble', 1);
  chain.fund(wallet.address, [{ denom: 'uusdc', amount: 100_000_000n }]);
  chain.produceBlock();
  return { chain, wallet };
}

/** A MsgDepositForBurn tx as signer-surface issues it (buildCosmosSignDoc), signed DIRECT by the wallet. */
function signedBurn(
  wallet: ReturnType<typeof cosmosDevnetKey>,
  msg: ReturnType<typeof depositForBurnMsg>,
  sequence = 0n,
): Uint8Array {
  const built = buildCosmosSignDoc({
    chainId: noble.id,
    bech32Prefix: 'noble',
    signerAddress: wallet.address,
    signerPubkey: base64.encode(wallet.publicKey),
    accountNumber: '0',
    sequence: sequence.toString(),
    msgs: [msg],
    gasLimit: '200000',
    fee: [{ denom: 'uusdc', amount: '20000' }],
  });
  if (built.kind !== 'ready') throw new Error(built.reason);
  const bodyBytes = base64.decode(built.payload.signDoc.bodyBytes);
  const authInfoBytes = base64.decode(built.payload.signDoc.authInfoBytes);
  const doc = SignDoc.encode({ bodyBytes, authInfoBytes, chainId: noble.id, accountNumber: 0n }).finish();
  const signature = secp256k1.sign(sha256(doc), wallet.privateKey, { prehash: false });
  return TxRaw.encode({ bodyBytes, authInfoBytes, signatures: [signature] }).finish();
}

describe("Noble's CCTP (the devnet bridge's Cosmos end)", () => {
  it('encodes MsgDepositForBurn as circle/cctp/v1/tx.proto numbers its fields, and decodes it back', () => {
    const msg = depositForBurnMsg({
      from: 'noble1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du',
      amount: 1_500_000n,
      destinationBridgeChainId: DEVNET_A,
      recipient: EVM_RECIPIENT,
      burnToken: 'uusdc',
    });
    const bytes = encodeMsgDepositForBurn(msg.value);
    // 0x0a from, 0x12 amount, 0x18 destination_domain (varint), 0x22 mint_recipient, 0x2a burn_token.
    expect([...bytes.subarray(0, 1)]).toEqual([0x0a]);
    const decoded = decodeMsgDepositForBurn(bytes);
    expect(decoded).toMatchObject({ amount: '1500000', destinationDomain: DEVNET_A, burnToken: 'uusdc' });
    expect(Buffer.from(decoded.mintRecipient).toString('hex')).toBe(
      `${'0'.repeat(24)}${EVM_RECIPIENT.slice(2).toLowerCase()}`,
    );
    // Solana is CCTP's domain 5 and Noble's own bridge id its domain 4.
    const toSolana = depositForBurnMsg({
      ...{ from: decoded.from, amount: 1n, burnToken: 'uusdc' },
      destinationBridgeChainId: SOLANA_BRIDGE_CHAIN_ID,
      recipient: `0x${Buffer.from(Keypair.generate().publicKey.toBytes()).toString('hex')}`,
    });
    expect(toSolana.value.destinationDomain).toBe(5);
    expect(NOBLE_BRIDGE_CHAIN_ID).toBe(4);
  });

  it('burns the USDC a wallet deposits for burn and relays it to the EVM recipient, less the fee; refuses an unknown domain', async () => {
    const { chain, wallet } = nobleChain();
    const endpoint = new NobleBridgeEndpoint({
      chain,
      cctp: params,
      feeBps: 30,
      logger: new RecordingLogger(),
    });
    const burn = (domainChain: number, sequence: bigint) =>
      signedBurn(
        wallet,
        depositForBurnMsg({
          from: wallet.address,
          amount: 10_000_000n,
          destinationBridgeChainId: domainChain,
          recipient: EVM_RECIPIENT,
          burnToken: 'uusdc',
        }),
        sequence,
      );
    expect(chain.checkTx(burn(DEVNET_A, 0n)).code).toBe(0);
    expect(chain.checkTx(burn(99, 1n)).code).toBe(0);
    chain.produceBlock();
    const [ok, unknownDomain] = chain.includedTxs().slice(-2);
    expect(ok.result.code).toBe(0);
    expect(unknownDomain.result).toMatchObject({ code: 18 });
    expect(unknownDomain.result.log).toContain('remote token messenger not found for domain 99');
    // 10 USDC burnt plus the two fees; the refused burn burnt nothing.
    expect(chain.queryState.balance(wallet.address, 'uusdc')).toBe(100_000_000n - 10_000_000n - 40_000n);

    const transfers = await endpoint.pollDeposits();
    expect(transfers).toEqual([
      {
        sourceChain: NOBLE_DEVNET_ID,
        sourceBridgeChainId: 4n,
        nonce: 0n,
        destinationBridgeChainId: BigInt(DEVNET_A),
        recipient: EVM_RECIPIENT,
        amount: 10_000_000n - 30_000n,
        depositTxHash: ok.hash,
      },
    ]);
    expect(await endpoint.pollDeposits()).toEqual([]);
    // The body carries the message the wallet signed, type URL included.
    expect(TxBody.decode(TxRaw.decode(ok.raw).bodyBytes).messages[0].typeUrl).toBe(
      '/circle.cctp.v1.MsgDepositForBurn',
    );
  });

  it('mints USDC bridged to a Noble account once per (source, nonce)', async () => {
    const { chain } = nobleChain();
    const endpoint = new NobleBridgeEndpoint({
      chain,
      cctp: params,
      feeBps: 30,
      logger: new RecordingLogger(),
    });
    const recipient = cosmosDevnetKey('noble', 2).address;
    const timer = setInterval(() => chain.produceBlock(), 20);
    try {
      const transfer = {
        sourceChain: 'devnet-a',
        sourceBridgeChainId: BigInt(DEVNET_A),
        nonce: 7n,
        destinationBridgeChainId: 4n,
        recipient,
        amount: 2_500_000n,
        depositTxHash: '0xabc',
      };
      const first = await endpoint.release(transfer);
      expect(first.status).toBe('released');
      expect(chain.queryState.balance(recipient, 'uusdc')).toBe(2_500_000n);
      expect(await endpoint.release(transfer)).toEqual({ status: 'already-released' });
      expect(chain.queryState.balance(recipient, 'uusdc')).toBe(2_500_000n);
      // What an EVM depositTo carries for it: the account's 20 bytes, left-padded.
      expect(cosmosRecipientBytes32(recipient)).toMatch(/^0x0{24}[0-9a-f]{40}$/);
    } finally {
      clearInterval(timer);
    }
  });

  it('relays a burn towards Bitcoin to the address its 32 bytes name; 32 bytes that are no output key are not relayed', async () => {
    const { chain, wallet } = nobleChain();
    const logger = new RecordingLogger();
    const endpoint = new NobleBridgeEndpoint({
      chain,
      cctp: params,
      feeBps: 30,
      logger,
      bitcoinNetwork: 'regtest',
    });
    const btcRecipient = 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj';
    const burn = (recipient: string, sequence: bigint) =>
      signedBurn(
        wallet,
        depositForBurnMsg({
          from: wallet.address,
          amount: 10_000_000n,
          destinationBridgeChainId: BITCOIN_BRIDGE_CHAIN_ID,
          recipient,
          burnToken: 'uusdc',
        }),
        sequence,
      );
    expect(chain.checkTx(burn(bitcoinRecipientToBytes32(btcRecipient), 0n)).code).toBe(0);
    // Nonzero 32 bytes (so Noble burns them) that are no x-only key on the curve (x = p - 1 is not).
    const noKey = `0x${'ff'.repeat(31)}fe`;
    expect(chain.checkTx(burn(noKey, 1n)).code).toBe(0);
    chain.produceBlock();
    const [ok, unpayable] = chain.includedTxs().slice(-2);
    expect([ok.result.code, unpayable.result.code]).toEqual([0, 0]);
    expect(await endpoint.pollDeposits()).toEqual([
      {
        sourceChain: NOBLE_DEVNET_ID,
        sourceBridgeChainId: 4n,
        nonce: 0n,
        destinationBridgeChainId: BigInt(BITCOIN_BRIDGE_CHAIN_ID),
        recipient: btcRecipient,
        amount: 10_000_000n - 30_000n,
        depositTxHash: ok.hash,
      },
    ]);
    expect(JSON.stringify(logger.lines)).toContain('burn names no payable recipient');
  });

  it('mints USDC a Bitcoin deposit bridged to Noble once per (Bitcoin, txid nonce)', async () => {
    const { chain } = nobleChain();
    const endpoint = new NobleBridgeEndpoint({
      chain,
      cctp: params,
      feeBps: 30,
      logger: new RecordingLogger(),
    });
    const recipient = cosmosDevnetKey('noble', 3).address;
    const timer = setInterval(() => chain.produceBlock(), 20);
    try {
      const txid = 'ab'.repeat(32);
      const transfer = {
        sourceChain: 'bitcoin-devnet',
        sourceBridgeChainId: BigInt(BITCOIN_BRIDGE_CHAIN_ID),
        nonce: bitcoinDepositNonce(txid),
        destinationBridgeChainId: 4n,
        recipient,
        amount: 1_234_567n,
        depositTxHash: txid,
      };
      expect((await endpoint.release(transfer)).status).toBe('released');
      expect(await endpoint.release(transfer)).toEqual({ status: 'already-released' });
      expect(chain.queryState.balance(recipient, 'uusdc')).toBe(1_234_567n);
      // A recipient that is not a Noble account is refused, as the relayer's mint would be.
      await expect(
        endpoint.release({
          ...transfer,
          nonce: 1n,
          recipient: 'cosmos1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjnp7du',
        }),
      ).rejects.toThrow('is not a noble account');
    } finally {
      clearInterval(timer);
    }
  });

  it('mints USDC a Solana deposit bridged to a Noble account once, named by source domain 5 and the deposit nonce', async () => {
    const { chain } = nobleChain();
    const endpoint = new NobleBridgeEndpoint({
      chain,
      cctp: params,
      feeBps: 30,
      logger: new RecordingLogger(),
    });
    const recipient = cosmosDevnetKey('noble', 3).address;
    // A Solana deposit's nonce: the first 32 bytes of its signature (256 bits, wider than CCTP's uint64).
    const signature = bs58.encode(Buffer.alloc(64, 0xfe));
    const nonce = solanaDepositNonce(signature);
    const timer = setInterval(() => chain.produceBlock(), 20);
    try {
      const transfer = {
        sourceChain: 'solana-devnet',
        sourceBridgeChainId: BigInt(SOLANA_BRIDGE_CHAIN_ID),
        nonce,
        destinationBridgeChainId: BigInt(NOBLE_BRIDGE_CHAIN_ID),
        recipient,
        amount: 1_994_000n,
        depositTxHash: signature,
      };
      const first = await endpoint.release(transfer);
      if (first.status !== 'released') throw new Error('not released');
      expect(chain.queryState.balance(recipient, 'uusdc')).toBe(1_994_000n);
      const mint = chain.includedTx(first.txHash)!;
      expect(mint.result.code).toBe(0);
      expect(mint.result.events.find((e) => e.type === 'circle.cctp.v1.MessageReceived')?.attributes).toEqual(
        expect.arrayContaining([
          { key: 'source_domain', value: '5' },
          { key: 'nonce', value: JSON.stringify(nonce.toString()) },
        ]),
      );
      expect(await endpoint.release(transfer)).toEqual({ status: 'already-released' });
      // A deposit from devnet-a with the same nonce is another message: minted too.
      expect(await endpoint.release({ ...transfer, sourceBridgeChainId: BigInt(DEVNET_A) })).toMatchObject({
        status: 'released',
      });
      expect(chain.queryState.balance(recipient, 'uusdc')).toBe(2n * 1_994_000n);
      // A recipient that is no Noble account is never minted to (the Solana end's memo parser refuses it first).
      await expect(
        endpoint.release({ ...transfer, nonce: nonce - 1n, recipient: cosmosDevnetKey('osmo', 3).address }),
      ).rejects.toThrow(/is not a noble account/);
    } finally {
      clearInterval(timer);
    }
  });
});
