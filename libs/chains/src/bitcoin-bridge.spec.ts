import * as btc from '@scure/btc-signer';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import {
  BITCOIN_NETWORKS,
  bitcoinBridgeRecipientKind,
  isBitcoinBridgeRecipient,
  bitcoinBridgeDepositMemo,
  bitcoinBridgeRefundMemo,
  parseBitcoinBridgeRefundMemo,
  bitcoinBridgeReleaseMemo,
  bitcoinDepositNonce,
  bitcoinRecipientToBytes32,
  bytes32ToBitcoinAddress,
  opReturnScript,
  opReturnText,
  parseBitcoinBridgeDepositMemo,
  parseBitcoinBridgeReleaseMemo,
  satsForUsdc,
  usdcForSats,
} from './bitcoin-bridge';

const EVM_RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const SOLANA_RECIPIENT = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const P2WPKH = 'bcrt1qlqj2pdsteppkcr8jkp9ms0wpvey89tna8v72sj';
const NOBLE_RECIPIENT = 'noble1qypqxpq9qcrsszg2pvxq6rs0zqg3yyc5hpek7j';
const P2TR = 'bcrt1p59wmxjtp2j6xtfl6sspt8wuj3v089t24sccrn8eu3u2qdycnsj4qj5zcyn';
const TERMS = { usdcPerBtc: 90_000, feeBps: 5, outboundFeeSats: 1_000 };

describe('Bitcoin bridge deposit memo', () => {
  it('writes THORChain’s swap memo with our chain ids, and reads it back', () => {
    const memo = bitcoinBridgeDepositMemo({
      destinationChain: 'devnet-a',
      asset: 'USDC',
      recipient: EVM_RECIPIENT.toLowerCase(),
      minAmountOut: 88_200_000n,
    });
    expect(memo).toBe(`=:devnet-a.USDC:${EVM_RECIPIENT}:88200000`);
    expect(parseBitcoinBridgeDepositMemo(memo)).toEqual({
      destinationChain: 'devnet-a',
      asset: 'USDC',
      recipient: EVM_RECIPIENT,
      minAmountOut: 88_200_000n,
    });
    const toSolana = `=:solana-devnet.USDC:${SOLANA_RECIPIENT}:1`;
    expect(parseBitcoinBridgeDepositMemo(toSolana)?.recipient).toBe(SOLANA_RECIPIENT);
    expect(Buffer.byteLength(toSolana)).toBeLessThanOrEqual(80);
  });

  it('refuses what is not exactly ours', () => {
    for (const text of [
      `SWAP:devnet-a.USDC:${EVM_RECIPIENT}:1`,
      `=:devnet-a.USDC:${EVM_RECIPIENT}`,
      `=:devnet-a.USDC:${EVM_RECIPIENT}:01`,
      `=:devnet-a.USDC:${EVM_RECIPIENT}:1e6`,
      `=:devnet-a.USDC:${EVM_RECIPIENT.replace('C8', 'c8')}:1`,
      `=:devnet-a:${EVM_RECIPIENT}:1`,
      '=:devnet-a.USDC:0x1234:1',
      `=:solana-devnet.USDC:${SOLANA_RECIPIENT}0:1`,
      `=:solana-devnet.USDC:${SOLANA_RECIPIENT}:${'9'.repeat(20)}`,
    ])
      expect(parseBitcoinBridgeDepositMemo(text)).toBeUndefined();
    expect(() =>
      bitcoinBridgeDepositMemo({
        destinationChain: 'devnet-a',
        asset: 'USDC',
        recipient: P2WPKH,
        minAmountOut: 1n,
      }),
    ).toThrow(/is not an EVM, Solana or Cosmos address/);
  });

  it('names a Noble account (bech32, 20 bytes) for Noble’s CCTP end; refuses a bad checksum or upper case', () => {
    const memo = bitcoinBridgeDepositMemo({
      destinationChain: 'noble-devnet',
      asset: 'USDC',
      recipient: NOBLE_RECIPIENT,
      minAmountOut: 8_900_000_000n,
    });
    expect(memo).toBe(`=:noble-devnet.USDC:${NOBLE_RECIPIENT}:8900000000`);
    expect(Buffer.byteLength(memo)).toBeLessThanOrEqual(80);
    expect(parseBitcoinBridgeDepositMemo(memo)?.recipient).toBe(NOBLE_RECIPIENT);
    expect(bitcoinBridgeRecipientKind(NOBLE_RECIPIENT)).toEqual({ kind: 'cosmos', bech32Prefix: 'noble' });
    expect(bitcoinBridgeRecipientKind(EVM_RECIPIENT)).toEqual({ kind: 'evm' });
    expect(bitcoinBridgeRecipientKind(SOLANA_RECIPIENT)).toEqual({ kind: 'solana' });
    const badChecksum = `${NOBLE_RECIPIENT.slice(0, -1)}${NOBLE_RECIPIENT.endsWith('q') ? 'p' : 'q'}`;
    for (const recipient of [badChecksum, NOBLE_RECIPIENT.toUpperCase()])
      expect(parseBitcoinBridgeDepositMemo(`=:noble-devnet.USDC:${recipient}:1`)).toBeUndefined();
  });

  it('carries memos in one OP_RETURN push', () => {
    const memo = `=:devnet-a.USDC:${EVM_RECIPIENT}:88200000`;
    const script = opReturnScript(memo);
    expect(script[0]).toBe(0x6a);
    expect(opReturnText(script)).toBe(memo);
    expect(opReturnText(opReturnScript('x'.repeat(80)))).toBe('x'.repeat(80));
    expect(() => opReturnScript('x'.repeat(81))).toThrow(/more than 80/);
    expect(opReturnText(Uint8Array.from([0x00, 0x14, ...new Uint8Array(20)]))).toBeUndefined();
    expect(parseBitcoinBridgeReleaseMemo(bitcoinBridgeReleaseMemo(31337n, 42n))).toEqual({
      sourceChainId: 31337n,
      nonce: 42n,
    });
    // A Solana source's nonce is 256 bits: the memo still fits one OP_RETURN.
    const solanaNonce = (1n << 256n) - 1n;
    const release = bitcoinBridgeReleaseMemo(1399811149n, solanaNonce);
    expect(Buffer.byteLength(release)).toBeLessThanOrEqual(80);
    expect(parseBitcoinBridgeReleaseMemo(release)?.nonce).toBe(solanaNonce);
    const txid = 'ab'.repeat(32);
    expect(parseBitcoinBridgeRefundMemo(bitcoinBridgeRefundMemo(txid))).toBe(txid);
    expect(opReturnText(opReturnScript(bitcoinBridgeRefundMemo(txid)))).toMatch(/^swapgw-bridge-refund:/);
  });
});

describe('Bitcoin bridge price', () => {
  it('pays USDC for sats at the fixed price less the bridge fee, rounding down', () => {
    // 1 BTC = 90,000 USDC, less 5 bps = 89,955 USDC.
    expect(usdcForSats(100_000_000n, TERMS)).toBe(89_955_000_000n);
    // 1 sat = 0.0009 USDC = 900 units, less 0 (the fee rounds down): 900.
    expect(usdcForSats(1n, TERMS)).toBe(900n);
  });

  it('pays sats for USDC at the fixed price, rounding down, with no second fee', () => {
    expect(satsForUsdc(90_000_000_000n, TERMS)).toBe(100_000_000n);
    expect(satsForUsdc(899n, TERMS)).toBe(0n);
    expect(satsForUsdc(900n, TERMS)).toBe(1n);
  });
});

describe('Bitcoin recipient as the EVM bridge’s bytes32', () => {
  it('pads a P2WPKH program and keeps a P2TR output key, both ways', () => {
    const wpkh = bitcoinRecipientToBytes32(P2WPKH);
    expect(wpkh).toMatch(/^0x0{24}[0-9a-f]{40}$/);
    expect(bytes32ToBitcoinAddress(wpkh, 'regtest')).toBe(P2WPKH);
    const tr = bitcoinRecipientToBytes32(P2TR);
    expect(bytes32ToBitcoinAddress(tr, 'regtest')).toBe(P2TR);
    expect(bytes32ToBitcoinAddress(wpkh, 'mainnet')).toMatch(/^bc1q/);
  });

  it('marks a P2SH script hash after 11 zero bytes, both ways', () => {
    // a P2SH-P2WPKH address (Xverse's payment address) on regtest
    const regtest = BITCOIN_NETWORKS.regtest;
    const p2sh = btc.p2sh(
      btc.p2wpkh(secp256k1.getPublicKey(new Uint8Array(32).fill(9), true), regtest),
      regtest,
    ).address!;
    expect(p2sh).toMatch(/^2/);
    const bytes32 = bitcoinRecipientToBytes32(p2sh);
    expect(bytes32).toMatch(/^0x0{22}01[0-9a-f]{40}$/);
    expect(bytes32ToBitcoinAddress(bytes32, 'regtest')).toBe(p2sh);
    expect(bytes32ToBitcoinAddress(bytes32, 'mainnet')).toMatch(/^3/);
    expect(isBitcoinBridgeRecipient(p2sh, 'regtest')).toBe(true);
    expect(isBitcoinBridgeRecipient(p2sh, 'mainnet')).toBe(false);
    expect(isBitcoinBridgeRecipient(P2WPKH, 'mainnet')).toBe(false);
  });

  it('refuses P2WSH, legacy and mixed-case addresses', () => {
    expect(() =>
      bitcoinRecipientToBytes32('bcrt1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qzf4jry'),
    ).toThrow(/not a P2WPKH, P2TR or P2SH/);
    expect(() => bitcoinRecipientToBytes32('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn')).toThrow();
    expect(() => bitcoinRecipientToBytes32(P2WPKH.toUpperCase())).toThrow();
  });

  it('numbers a deposit by its txid', () => {
    expect(bitcoinDepositNonce('00'.repeat(31) + '2a')).toBe(42n);
    expect(() => bitcoinDepositNonce('xyz')).toThrow();
  });
});
