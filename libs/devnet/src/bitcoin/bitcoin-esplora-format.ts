import type { BitcoinNetworkName } from '@swapgw/chains/bitcoin-bridge';
import { BitcoinChain, ChainBlock, ChainTransaction } from './bitcoin-chain';
import { pushOnlyStack, scriptAddress, scriptAsm, scriptType } from './bitcoin-script';
import { inputSequence, outputAt, spentOutpoint } from './bitcoin-transaction-parts';

// The JSON shapes of Blockstream's Esplora HTTP API (esplora API.md), field for field, built from
// the chain's records.

export interface EsploraStatus {
  confirmed: boolean;
  block_height?: number;
  block_hash?: string;
  block_time?: number;
}

export function esploraStatus(entry: ChainTransaction): EsploraStatus {
  return entry.block
    ? {
        confirmed: true,
        block_height: entry.block.height,
        block_hash: entry.block.hash,
        block_time: entry.block.time,
      }
    : { confirmed: false };
}

/** An output as Esplora lists it, its address rendered on `network` (the chain's). */
export function esploraOutput(script: Uint8Array, value: bigint, network: BitcoinNetworkName) {
  const address = scriptAddress(script, network);
  return {
    scriptpubkey: hex(script),
    scriptpubkey_asm: scriptAsm(script),
    scriptpubkey_type: scriptType(script),
    ...(address !== undefined ? { scriptpubkey_address: address } : {}),
    value: Number(value),
  };
}

export function esploraTransaction(entry: ChainTransaction, network: BitcoinNetworkName) {
  const { tx } = entry;
  const vin = Array.from({ length: tx.inputsLength }, (_, i) => {
    const input = tx.getInput(i);
    const prevout = entry.prevouts[i];
    const scriptSig = input.finalScriptSig ?? new Uint8Array();
    const witness = input.finalScriptWitness ?? [];
    const redeemScript =
      prevout && scriptType(prevout.script) === 'p2sh' ? redeemScriptOf(scriptSig) : undefined;
    const spent = spentOutpoint(tx, i);
    return {
      txid: spent.txid,
      vout: spent.vout,
      prevout: prevout ? esploraOutput(prevout.script, prevout.value, network) : null,
      scriptsig: hex(scriptSig),
      scriptsig_asm: scriptAsm(scriptSig),
      ...(witness.length > 0 ? { witness: witness.map(hex) } : {}),
      is_coinbase: entry.isCoinbase,
      sequence: inputSequence(tx, i),
      ...(redeemScript ? { inner_redeemscript_asm: scriptAsm(redeemScript) } : {}),
    };
  });
  const vout = Array.from({ length: tx.outputsLength }, (_, i) => {
    const output = outputAt(tx, i);
    return esploraOutput(output.script, output.amount, network);
  });
  return {
    txid: entry.txid,
    version: tx.version,
    locktime: tx.lockTime,
    vin,
    vout,
    size: entry.size,
    weight: entry.weight,
    fee: Number(entry.fee),
    status: esploraStatus(entry),
  };
}

/** A P2SH spend's redeem script, as electrs reads it: the last item its scriptSig pushes. */
function redeemScriptOf(scriptSig: Uint8Array): Uint8Array | undefined {
  const stack = pushOnlyStack(scriptSig);
  return stack?.[stack.length - 1];
}

export function esploraBlock(block: ChainBlock, chain: BitcoinChain) {
  const window = chain.blocks.slice(Math.max(0, block.height - 10), block.height + 1).map((b) => b.time);
  const sorted = [...window].sort((a, b) => a - b);
  return {
    id: block.hash,
    height: block.height,
    version: block.version,
    timestamp: block.time,
    tx_count: block.txids.length,
    size: block.size,
    weight: block.weight,
    merkle_root: block.merkleRoot,
    previousblockhash: block.previousblockhash,
    mediantime: sorted[Math.floor(sorted.length / 2)],
    nonce: block.nonce,
    bits: block.bits,
    difficulty: REGTEST_DIFFICULTY,
  };
}

/** Esplora's `chain_stats` and `mempool_stats` of an address, from the transactions touching its script. */
export function esploraAddressStats(script: Uint8Array, entries: ChainTransaction[]) {
  const empty = () => ({
    funded_txo_count: 0,
    funded_txo_sum: 0,
    spent_txo_count: 0,
    spent_txo_sum: 0,
    tx_count: 0,
  });
  const chain = empty();
  const mempool = empty();
  const scriptHex = hex(script);
  for (const entry of entries) {
    const stats = entry.block ? chain : mempool;
    stats.tx_count++;
    for (let i = 0; i < entry.tx.outputsLength; i++) {
      const output = outputAt(entry.tx, i);
      if (hex(output.script) !== scriptHex) continue;
      stats.funded_txo_count++;
      stats.funded_txo_sum += Number(output.amount);
    }
    for (const prevout of entry.prevouts) {
      if (!prevout || hex(prevout.script) !== scriptHex) continue;
      stats.spent_txo_count++;
      stats.spent_txo_sum += Number(prevout.value);
    }
  }
  return { chain_stats: chain, mempool_stats: mempool };
}

/** regtest's difficulty (its proof-of-work limit), as bitcoind reports it. */
const REGTEST_DIFFICULTY = 4.656542373906925e-10;

export const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
