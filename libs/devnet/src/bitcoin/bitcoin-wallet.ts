import * as btc from '@scure/btc-signer';
import { schnorr } from '@noble/curves/secp256k1.js';
import { BITCOIN_NETWORKS } from '@swapgw/chains/bitcoin-bridge';
import { BitcoinDevnetKey, p2shP2wpkhOf, p2trOf } from './bitcoin-keys';

export { p2shP2wpkhOf, p2trOf };
import { outputAt } from './bitcoin-transaction-parts';

/** A coin a key can spend, as Esplora's /address/:a/utxo lists it. */
export interface SpendableCoin {
  txid: string;
  vout: number;
  value: bigint;
}

/** Paid to an address of the key's network, or to a raw script (e.g. OP_RETURN). */
export type PaymentOutput = ({ address: string } | { script: Uint8Array }) & { amount: bigint };

export interface SignedPayment {
  txid: string;
  hex: string;
  vsize: number;
  fee: bigint;
}

/**
 * Which of a key's addresses holds the coins a payment spends: its native SegWit P2WPKH address
 * (`bcrt1q…` / `bc1q…`, BIP84), its BIP86 key-path P2TR address (`bcrt1p…` / `bc1p…`) or its P2WPKH
 * nested in P2SH (`2…` / `3…`, BIP49: Xverse's payment address).
 */
export type WalletAddressKind = 'p2wpkh' | 'p2tr' | 'p2sh-p2wpkh';

/** BIP125: lets the payment be replaced by one paying more (the default of today's wallets). */
export const RBF_SEQUENCE = 0xfffffffd;

/**
 * Builds and signs a payment from `key`'s coins, as a wallet does: `coins` in order until they
 * cover the outputs and the fee, change (above dust) back to the key's P2WPKH address.
 * `addressKind`: which of the key's addresses the coins are at (default its P2WPKH one);
 * `taproot: true` is the same as `addressKind: 'p2tr'`.
 */
export function signPayment(input: {
  key: BitcoinDevnetKey;
  coins: SpendableCoin[];
  outputs: PaymentOutput[];
  /** A fixed fee in sats. */
  fee: bigint;
  addressKind?: WalletAddressKind;
  taproot?: boolean;
  sequence?: number;
}): SignedPayment {
  const kind = addressKindOf(input);
  const wanted = input.outputs.reduce((sum, o) => sum + o.amount, 0n) + input.fee;
  const tx = new btc.Transaction({ allowUnknownOutputs: true });
  let gathered = 0n;
  for (const coin of input.coins) {
    if (gathered >= wanted) break;
    tx.addInput({
      txid: coin.txid,
      index: coin.vout,
      sequence: input.sequence ?? RBF_SEQUENCE,
      ...spendingFields(input.key, kind, coin.value),
    });
    gathered += coin.value;
  }
  if (gathered < wanted) throw new Error(`the coins hold ${gathered} sats; the payment needs ${wanted}`);
  for (const output of input.outputs) {
    const script =
      'script' in output
        ? output.script
        : btc.OutScript.encode(btc.Address(BITCOIN_NETWORKS[input.key.network]).decode(output.address));
    tx.addOutput({ script, amount: output.amount });
  }
  const change = gathered - wanted;
  // Change that would be dust is left to the miner, as wallets do.
  if (change >= 546n) tx.addOutput({ script: input.key.script, amount: change });
  tx.sign(input.key.privateKey);
  tx.finalize();
  return { txid: tx.id, hex: tx.hex, vsize: tx.vsize, fee: gathered - outputsSum(tx) };
}

function addressKindOf(input: { addressKind?: WalletAddressKind; taproot?: boolean }): WalletAddressKind {
  if (input.taproot && input.addressKind && input.addressKind !== 'p2tr')
    throw new Error(`taproot: true contradicts addressKind: '${input.addressKind}'`);
  return input.addressKind ?? (input.taproot ? 'p2tr' : 'p2wpkh');
}

/** What the signer needs to know of a coin at the key's `kind` address to sign and finalize its input. */
function spendingFields(key: BitcoinDevnetKey, kind: WalletAddressKind, value: bigint) {
  switch (kind) {
    case 'p2wpkh':
      return { witnessUtxo: { script: key.script, amount: value } };
    case 'p2tr':
      return {
        witnessUtxo: { script: p2trOf(key).script, amount: value },
        tapInternalKey: schnorr.getPublicKey(key.privateKey),
      };
    case 'p2sh-p2wpkh': {
      const nested = p2shP2wpkhOf(key);
      return { witnessUtxo: { script: nested.script, amount: value }, redeemScript: nested.redeemScript };
    }
  }
}

function outputsSum(tx: btc.Transaction): bigint {
  let sum = 0n;
  for (let i = 0; i < tx.outputsLength; i++) sum += outputAt(tx, i).amount;
  return sum;
}
