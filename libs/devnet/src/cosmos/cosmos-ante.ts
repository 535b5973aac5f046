import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32 } from '@scure/base';
import type { CosmosChainSpec } from './cosmos-chain-spec';
import { CosmosTxError } from './cosmos-errors';
import { useGrantedFees } from './cosmos-feegrant';
import { GAS_COSTS, GasMeter } from './cosmos-gas';
import { cosmosAddress } from './cosmos-keys';
import { transferEvents, TxEvent } from './cosmos-messages';
import { Coin, CosmosState, formatCoins } from './cosmos-state';
import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import { DecodedTx, signBytes, signerMode, signerPublicKey } from './cosmos-tx';

/** check = CheckTx (mempool admission), deliver = in a block, simulate = the Simulate query. */
export type TxMode = 'check' | 'deliver' | 'simulate';

/** x/auth's fee collector module account: sha256("fee_collector")[:20], as address.Module builds it. */
export function feeCollectorAddress(prefix: string): string {
  return bech32.encode(
    prefix,
    bech32.toWords(sha256(new TextEncoder().encode('fee_collector')).slice(0, 20)),
  );
}

/**
 * The minimum fee of a gas limit at the chain's minimum gas price: ceil(gasLimit × price), exact
 * (the price as a decimal fraction, no float rounding).
 */
export function requiredFee(spec: CosmosChainSpec, gasLimit: bigint): Coin {
  const [whole, fraction = ''] = spec.minGasPrice.toString().split('.');
  const scale = 10n ** BigInt(fraction.length);
  const numerator = gasLimit * BigInt(whole + fraction);
  return { denom: spec.denom, amount: (numerator + scale - 1n) / scale };
}

/**
 * The SDK's ante handler, in its order: tx size gas, the mempool fee floor (CheckTx only), fee
 * deduction (from the granter under its allowance when fee.granter is set), signer accounts and
 * pubkeys, signature gas, sequences and signatures (not in simulate), sequence increments.
 */
export function runAnte(
  state: CosmosState,
  tx: DecodedTx,
  spec: CosmosChainSpec,
  mode: TxMode,
  gas: GasMeter,
  blockTime: Date,
  events: TxEvent[],
): void {
  gas.consume(GAS_COSTS.txBodyBytePerByte * tx.bodyBytes.length, 'txSize');

  if (mode === 'check') {
    const required = requiredFee(spec, tx.gasLimit);
    const paid = tx.fee.find((c) => c.denom === spec.denom)?.amount ?? 0n;
    if (required.amount > 0n && paid < required.amount) {
      throw new CosmosTxError(
        'insufficientFee',
        `insufficient fees; got: ${formatCoins(tx.fee)} required: ${formatCoins([required])}`,
      );
    }
  }

  gas.consume(GAS_COSTS.feeDeduction, 'deductFee');
  let deductFrom = tx.feePayer;
  if (tx.feeGranter && tx.feeGranter !== tx.feePayer) {
    useGrantedFees(state, tx.feeGranter, tx.feePayer, tx.fee, blockTime);
    deductFrom = tx.feeGranter;
  }
  if (!state.account(deductFrom)) {
    throw new CosmosTxError('unknownAddress', `fee payer address: ${deductFrom} does not exist`);
  }
  if (tx.fee.length > 0) {
    try {
      state.send(deductFrom, feeCollectorAddress(spec.bech32Prefix), tx.fee);
    } catch (error) {
      // DeductFees wraps the bank's error in ErrInsufficientFunds again, hence the SDK's doubled suffix.
      throw error instanceof CosmosTxError ? new CosmosTxError('insufficientFunds', error.message) : error;
    }
    events.push(...transferEvents(deductFrom, feeCollectorAddress(spec.bech32Prefix), tx.fee));
  }
  events.push({
    type: 'tx',
    attributes: [
      { key: 'fee', value: formatCoins(tx.fee) },
      { key: 'fee_payer', value: deductFrom },
    ],
  });

  tx.signers.forEach((signer, index) => {
    gas.consume(GAS_COSTS.accountReadWrite, 'signerAccount');
    gas.consume(GAS_COSTS.signatureVerification, 'ante verify: secp256k1');
    const account = state.account(signer);
    if (!account) throw new CosmosTxError('unknownAddress', `account ${signer} does not exist`);
    const offered = signerPublicKey(tx, index);
    if (offered && cosmosAddress(spec.bech32Prefix, offered) !== signer) {
      throw new CosmosTxError(
        'invalidPubKey',
        `pubKey does not match signer address ${signer} with signer index: ${index}`,
      );
    }
    const publicKey = account.pubKey ?? offered;
    if (!publicKey) throw new CosmosTxError('invalidPubKey', 'pubkey on account is not set');
    const sequence = tx.authInfo.signerInfos[index].sequence;
    if (sequence !== account.sequence) {
      throw new CosmosTxError(
        'wrongSequence',
        `account sequence mismatch, expected ${account.sequence}, got ${sequence}`,
      );
    }
    if (mode !== 'simulate' && !verifySignature(tx, index, spec.id, account.accountNumber, publicKey)) {
      // The SDK names the sequence only for amino signers: their sign bytes carry it, DIRECT's do not.
      const sequenceHint =
        signerMode(tx, index) === SignMode.SIGN_MODE_LEGACY_AMINO_JSON
          ? `, sequence (${account.sequence})`
          : '';
      throw new CosmosTxError(
        'unauthorized',
        `signature verification failed; please verify account number (${account.accountNumber})${sequenceHint} and chain-id (${spec.id})`,
      );
    }
    account.pubKey ??= publicKey;
    account.sequence += 1n;
    events.push(
      { type: 'tx', attributes: [{ key: 'acc_seq', value: `${signer}/${sequence}` }] },
      {
        type: 'tx',
        attributes: [{ key: 'signature', value: Buffer.from(tx.signatures[index]).toString('base64') }],
      },
    );
  });
}

/** secp256k1 over SHA-256 of the sign bytes, 64-byte r‖s, low-S only (as the SDK's VerifySignature). */
function verifySignature(
  tx: DecodedTx,
  index: number,
  chainId: string,
  accountNumber: bigint,
  publicKey: Uint8Array,
): boolean {
  const signature = tx.signatures[index];
  const bytes = signBytes(tx, index, chainId, accountNumber);
  if (!bytes || signature.length !== 64) return false;
  try {
    return secp256k1.verify(signature, sha256(bytes), publicKey, { prehash: false, lowS: true });
  } catch {
    return false;
  }
}
