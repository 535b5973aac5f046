import { SignMode } from 'cosmjs-types/cosmos/tx/signing/v1beta1/signing';
import type { CosmosBlock, IncludedTx, TxResult } from './cosmos-chain';
import { coinsJson } from './cosmos-messages';
import type { CosmosAccount } from './cosmos-state';
import { DecodedTx, SECP256K1_PUBKEY_TYPE_URL } from './cosmos-tx';

/** JSON of the chain's objects in the shapes CometBFT's RPC and the SDK's REST gateway give them. */

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/** CometBFT's ExecTxResult / ResponseCheckTx. */
export function cometTxResultJson(result: TxResult): Record<string, unknown> {
  return {
    code: result.code,
    data: result.data.length ? base64(result.data) : null,
    log: result.log,
    info: '',
    gas_wanted: result.gasWanted.toString(),
    gas_used: result.gasUsed.toString(),
    events: result.events.map((e) => ({
      type: e.type,
      attributes: e.attributes.map((a) => ({ ...a, index: true })),
    })),
    codespace: result.codespace,
  };
}

export function cometTxJson(tx: IncludedTx): Record<string, unknown> {
  return {
    hash: tx.hash,
    height: String(tx.height),
    index: tx.index,
    tx_result: cometTxResultJson(tx.result),
    tx: base64(tx.raw),
  };
}

export function cometBlockIdJson(block: CosmosBlock | undefined): Record<string, unknown> {
  return block
    ? { hash: block.hash, parts: { total: 1, hash: block.hash } }
    : { hash: '', parts: { total: 0, hash: '' } };
}

export function cometBlockJson(
  chainId: string,
  block: CosmosBlock,
  previous: CosmosBlock | undefined,
  validator: string,
) {
  const empty = '';
  return {
    block_id: cometBlockIdJson(block),
    block: {
      header: {
        version: { block: '11', app: '0' },
        chain_id: chainId,
        height: String(block.height),
        time: rfc3339(block.time),
        last_block_id: cometBlockIdJson(previous),
        last_commit_hash: empty,
        data_hash: empty,
        validators_hash: validator,
        next_validators_hash: validator,
        consensus_hash: empty,
        app_hash: block.appHash,
        last_results_hash: empty,
        evidence_hash: empty,
        proposer_address: validator,
      },
      data: { txs: block.txs.map(base64) },
      evidence: { evidence: [] },
      last_commit: {
        height: String(Math.max(block.height - 1, 0)),
        round: 0,
        block_id: cometBlockIdJson(previous),
        signatures: [],
      },
    },
  };
}

export function accountJson(account: CosmosAccount): Record<string, unknown> {
  return {
    '@type': '/cosmos.auth.v1beta1.BaseAccount',
    address: account.address,
    pub_key: account.pubKey ? { '@type': SECP256K1_PUBKEY_TYPE_URL, key: base64(account.pubKey) } : null,
    account_number: account.accountNumber.toString(),
    sequence: account.sequence.toString(),
  };
}

/** The SDK's TxResponse (abci.TxResponse) as the REST gateway writes it. */
export function txResponseJson(
  hash: string,
  result: TxResult,
  included?: { height: number; time: Date; tx: DecodedTx | undefined },
): Record<string, unknown> {
  return {
    height: String(included?.height ?? 0),
    txhash: hash,
    codespace: result.codespace,
    code: result.code,
    data: result.data.length ? Buffer.from(result.data).toString('hex').toUpperCase() : '',
    raw_log: result.log,
    logs: [],
    info: '',
    gas_wanted: result.gasWanted.toString(),
    gas_used: result.gasUsed.toString(),
    tx: included?.tx ? { '@type': '/cosmos.tx.v1beta1.Tx', ...txJson(included.tx) } : null,
    timestamp: included ? included.time.toISOString().replace('.000Z', 'Z') : '',
    events: result.events.map((e) => ({
      type: e.type,
      attributes: e.attributes.map((a) => ({ ...a, index: true })),
    })),
  };
}

/** A Tx in proto JSON, messages with their `@type`. */
export function txJson(tx: DecodedTx): Record<string, unknown> {
  return {
    body: {
      messages: tx.messages.map(({ typeUrl, handler, msg }) => ({
        '@type': typeUrl,
        ...handler.toJson(msg),
      })),
      memo: tx.body.memo,
      timeout_height: tx.body.timeoutHeight.toString(),
      extension_options: [],
      non_critical_extension_options: [],
    },
    auth_info: {
      signer_infos: tx.authInfo.signerInfos.map((info) => ({
        public_key: info.publicKey
          ? { '@type': info.publicKey.typeUrl, key: base64(info.publicKey.value.subarray(2)) }
          : null,
        mode_info: {
          single: { mode: SignMode[info.modeInfo?.single?.mode ?? 0] ?? 'SIGN_MODE_UNSPECIFIED' },
        },
        sequence: info.sequence.toString(),
      })),
      fee: {
        amount: coinsJson(tx.authInfo.fee?.amount ?? []),
        gas_limit: tx.gasLimit.toString(),
        payer: tx.authInfo.fee?.payer ?? '',
        granter: tx.feeGranter,
      },
      tip: null,
    },
    signatures: tx.signatures.map(base64),
  };
}
