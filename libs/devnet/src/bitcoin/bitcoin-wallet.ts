import * as btc from '@scure/btc-signer';
import { schnorr } from '@noble/curves/secp256k1.js';
import { BITCOIN_DEVNET_NETWORK, BitcoinDevnetKey } from './bitcoin-keys';

/** A coin a key can spend, as Esplora's /address/:a/utxo lists it. */
export interface SpendableCoin {
  txid: string;
  vout: number;
  value: bigint;
}

export interface PaymentOutput {
  /** A regtest address, or a raw script (e.g. OP_RETURN). */
  address?: string;
  script?: Uint8Array;
  amount: bigint;
}

export interface SignedPayment {
  txid: string;
  hex: string;
  vsize: number;
  fee: bigint;
}

/** BIP125: lets the payment be replaced by one paying more (the default of today's wallets). */
export const RBF_SEQUENCE = 0xfffffffd;

/**
 * Builds and signs a payment from `key`'s coins, as a wallet does: `coins` in order until they
 * cover the outputs and the fee, change (above dust) back to the key's P2WPKH address.
 * `taproot`: the coins are the key's P2TR key-path output (BIP86, no script tree) instead.
 */
export function signPayment(input: {
  key: BitcoinDevnetKey;
  coins: SpendableCoin[];
  outputs: PaymentOutput[];
  /** A fixed fee in sats. */
  fee: bigint;
  taproot?: boolean;
  sequence?: number;
}): SignedPayment {
  const owned = input.taproot ? p2trOf(input.key) : { script: input.key.script };
  const wanted = input.outputs.reduce((sum, o) => sum + o.amount, 0n) + input.fee;
  const tx = new btc.Transaction({ allowUnknownOutputs: true });
  let gathered = 0n;
  for (const coin of input.coins) {
    if (gathered >= wanted) break;
    tx.addInput({
      txid: coin.txid,
      index: coin.vout,
      witnessUtxo: { script: owned.script, amount: coin.value },
      sequence: input.sequence ?? RBF_SEQUENCE,
      ...(input.taproot ? { tapInternalKey: schnorr.getPublicKey(input.key.privateKey) } : {}),
    });
    gathered += coin.value;
  }
  if (gathered < wanted) throw new Error(`the coins hold ${gathered} sats; the payment needs ${wanted}`);
  for (const output of input.outputs) {
    const script =
      output.script ?? btc.OutScript.encode(btc.Address(BITCOIN_DEVNET_NETWORK).decode(output.address!));
    tx.addOutput({ script, amount: output.amount });
  }
  const change = gathered - wanted;
  // Change that would be dust is left to the miner, as wallets do.
  if (change >= 546n) tx.addOutput({ script: input.key.script, amount: change });
  tx.sign(input.key.privateKey);
  tx.finalize();
  return { txid: tx.id, hex: tx.hex, vsize: tx.vsize, fee: gathered - outputsSum(tx) };
}

/** The key's BIP86 P2TR output (key path only): address and script. */
export function p2trOf(key: BitcoinDevnetKey): { address: string; script: Uint8Array } {
  const payment = btc.p2tr(schnorr.getPublicKey(key.privateKey), undefined, BITCOIN_DEVNET_NETWORK);
  return { address: payment.address!, script: payment.script };
}

function outputsSum(tx: btc.Transaction): bigint {
  let sum = 0n;
  for (let i = 0; i < tx.outputsLength; i++) sum += tx.getOutput(i).amount!;
  return sum;
}
