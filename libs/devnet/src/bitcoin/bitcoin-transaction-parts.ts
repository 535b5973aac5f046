import * as btc from '@scure/btc-signer';

// scure types every field of an input and an output as optional (a PSBT may lack any of them). A
// transaction decoded from its serialisation always has each input's outpoint and sequence and each
// output's script and amount, as has one built with them. These read them, and throw when one is
// missing: a transaction that is not complete, which the devnet never holds.

/** The outpoint input `index` spends: the previous transaction's txid (display hex) and output index. */
export function spentOutpoint(tx: btc.Transaction, index: number): { txid: string; vout: number } {
  const { txid, index: vout } = tx.getInput(index);
  if (txid === undefined || vout === undefined) throw missingPart(`input ${index}'s outpoint`);
  return { txid: Buffer.from(txid).toString('hex'), vout };
}

export function inputSequence(tx: btc.Transaction, index: number): number {
  const { sequence } = tx.getInput(index);
  if (sequence === undefined) throw missingPart(`input ${index}'s sequence`);
  return sequence;
}

/** Output `index`: its scriptPubKey and its value in sats. */
export function outputAt(tx: btc.Transaction, index: number): { script: Uint8Array; amount: bigint } {
  const { script, amount } = tx.getOutput(index);
  if (script === undefined || amount === undefined) throw missingPart(`output ${index}'s script or amount`);
  return { script, amount };
}

function missingPart(what: string): Error {
  return new Error(`the transaction has no ${what}: it is not complete`);
}
