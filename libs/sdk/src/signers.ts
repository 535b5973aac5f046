// Signer adapters: what runSwap calls to turn a signing payload into the body of
// POST /swap/{swapId}/signing. The ethers and viem adapters use only the methods of the objects they
// are given (no import of either library), so the package loads without them: they are optional
// peer dependencies. The Solana adapter is in `@swapgw/sdk/solana` (it needs @solana/web3.js); the
// Bitcoin and Cosmos wallet adapters are in bitcoin-signers.ts and cosmos-signers.ts.
import type { CosmosSignDirectPayload } from './cosmos-signers';
import type { components } from './gateway-api';

type Schemas = components['schemas'];
/**
 * What runSwap hands a signer: the payloads of the API's types, and the Cosmos payload, whose type
 * the SDK defines until the gateway's API serves it (see cosmos-signers.ts).
 */
export type SigningPayload = Schemas['ReadySigningEnvelopeDto']['payload'] | CosmosSignDirectPayload;
export type SigningPayloadType = SigningPayload['type'];
export type SubmitSignedRequest = Schemas['SubmitSignedTxDto'];
export type EvmTransactionFields = Schemas['EvmTransactionFieldsDto'];
export type Eip712TypedData = Schemas['Eip712TypedDataDto'];

export interface SigningContext {
  swapId: string;
  step: { current: number; total: number };
}

/** Signs the payload types it names; runSwap picks the first signer that handles a payload's type. */
export interface SwapSigner {
  readonly handles: readonly SigningPayloadType[];
  sign(payload: SigningPayload, context: SigningContext): Promise<SubmitSignedRequest>;
}

/** A signer made of a function, e.g. for bitcoin-psbt (`rawTx`: the signed PSBT, base64 or hex). */
export function customSigner(
  handles: readonly SigningPayloadType[],
  sign: (payload: SigningPayload, context: SigningContext) => Promise<string | SubmitSignedRequest>,
): SwapSigner {
  return {
    handles,
    async sign(payload, context) {
      const signed = await sign(payload, context);
      return typeof signed === 'string' ? { rawTx: signed } : signed;
    },
  };
}

/**
 * How an evm-transaction step is completed: `sign` signs the payload's transaction as given (nonce,
 * gas and fees included) and submits `{ rawTx }`; `send` lets the wallet send it (it picks nonce and
 * gas, as injected wallets do with eth_sendTransaction) and submits `{ txHash }` (user-paid steps only).
 */
export type EvmTransactionMode = 'sign' | 'send';

/** The type fields of a typed-data payload without EIP712Domain (the libraries derive it from the domain). */
function structTypes(typedData: Eip712TypedData): Record<string, Array<{ name: string; type: string }>> {
  const { EIP712Domain: _domain, ...types } = typedData.types;
  return types;
}

function wrongType(adapter: string, payload: SigningPayload): never {
  throw new Error(`the ${adapter} signer cannot sign a ${payload.type} payload`);
}

/** The subset of an ethers v6 Signer (Wallet, HDNodeWallet, JsonRpcSigner) the adapter uses. */
export interface EthersSignerLike {
  signTransaction(tx: Record<string, unknown>): Promise<string>;
  sendTransaction(tx: Record<string, unknown>): Promise<{ hash: string }>;
  signTypedData(
    domain: Record<string, unknown>,
    types: Record<string, Array<{ name: string; type: string }>>,
    value: Record<string, unknown>,
  ): Promise<string>;
}

/**
 * ethers v6: evm-transaction with `signTransaction` (mode `sign`, a Wallet) or `sendTransaction`
 * (mode `send`, a BrowserProvider's signer: MetaMask and other injected wallets); evm-typed-data with
 * `signTypedData`.
 */
export function ethersSigner(
  signer: EthersSignerLike,
  options: { mode?: EvmTransactionMode } = {},
): SwapSigner {
  const mode = options.mode ?? 'sign';
  return {
    handles: ['evm-transaction', 'evm-typed-data'],
    async sign(payload) {
      if (payload.type === 'evm-typed-data') {
        const { domain, message } = payload.typedData;
        return { rawTx: await signer.signTypedData(domain, structTypes(payload.typedData), message) };
      }
      if (payload.type !== 'evm-transaction') return wrongType('ethers', payload);
      const tx = payload.transaction;
      if (mode === 'send') {
        const sent = await signer.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value),
          chainId: BigInt(tx.chainId),
        });
        return { txHash: sent.hash };
      }
      return {
        rawTx: await signer.signTransaction({
          type: 2,
          chainId: BigInt(tx.chainId),
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value),
          nonce: Number(tx.nonce),
          gasLimit: BigInt(tx.gasLimit),
          maxFeePerGas: BigInt(tx.maxFeePerGas),
          maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
        }),
      };
    },
  };
}

type Hex = `0x${string}`;

/** A viem LocalAccount (privateKeyToAccount, mnemonicToAccount...). */
export interface ViemLocalAccountLike {
  address: Hex;
  type: 'local';
  signTransaction(tx: Record<string, unknown>): Promise<Hex>;
  signTypedData(typedData: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  }): Promise<Hex>;
}

/** A viem WalletClient with an account (local, or json-rpc for an injected wallet). */
export interface ViemWalletClientLike {
  account?: { address: Hex; type: string };
  signTransaction(args: Record<string, unknown>): Promise<Hex>;
  sendTransaction(args: Record<string, unknown>): Promise<Hex>;
  signTypedData(args: Record<string, unknown>): Promise<Hex>;
}

/**
 * viem takes typed-data integers as bigint and the domain's chainId as a number; the payload
 * carries them as decimal strings.
 */
function viemTypedData(typedData: Eip712TypedData) {
  const types = structTypes(typedData);
  const convert = (type: string, value: unknown): unknown => {
    if (type.endsWith('[]')) return (value as unknown[]).map((v) => convert(type.slice(0, -2), v));
    if (/^u?int\d*$/.test(type)) return BigInt(value as string | number);
    const fields = types[type];
    if (!fields) return value;
    const record = value as Record<string, unknown>;
    return Object.fromEntries(fields.map((f) => [f.name, convert(f.type, record[f.name])]));
  };
  const domain: Record<string, unknown> = { ...typedData.domain };
  if (domain.chainId !== undefined) domain.chainId = Number(domain.chainId);
  return {
    domain,
    types,
    primaryType: typedData.primaryType,
    message: convert(typedData.primaryType, typedData.message) as Record<string, unknown>,
  };
}

function viemTransaction(tx: EvmTransactionFields) {
  return {
    type: 'eip1559' as const,
    chainId: Number(tx.chainId),
    to: tx.to as Hex,
    data: tx.data as Hex,
    value: BigInt(tx.value),
    nonce: Number(tx.nonce),
    gas: BigInt(tx.gasLimit),
    maxFeePerGas: BigInt(tx.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
  };
}

/**
 * viem: a LocalAccount signs evm-transaction and evm-typed-data itself; a WalletClient signs with its
 * account (mode `sign`) or sends the transaction and submits its hash (mode `send`: an injected
 * wallet through `custom(window.ethereum)`).
 */
export function viemSigner(
  accountOrClient: ViemLocalAccountLike | ViemWalletClientLike,
  options: { mode?: EvmTransactionMode } = {},
): SwapSigner {
  const mode = options.mode ?? 'sign';
  if ('type' in accountOrClient && accountOrClient.type === 'local') {
    const local = accountOrClient as ViemLocalAccountLike;
    if (mode === 'send')
      throw new Error('a viem LocalAccount cannot send: give a WalletClient for mode send');
    return {
      handles: ['evm-transaction', 'evm-typed-data'],
      async sign(payload) {
        if (payload.type === 'evm-typed-data')
          return { rawTx: await local.signTypedData(viemTypedData(payload.typedData)) };
        if (payload.type !== 'evm-transaction') return wrongType('viem', payload);
        return { rawTx: await local.signTransaction(viemTransaction(payload.transaction)) };
      },
    };
  }
  const client = accountOrClient as ViemWalletClientLike;
  const account = client.account;
  if (!account) throw new Error('the viem WalletClient needs an account');
  return {
    handles: ['evm-transaction', 'evm-typed-data'],
    async sign(payload) {
      if (payload.type === 'evm-typed-data')
        return { rawTx: await client.signTypedData({ account, ...viemTypedData(payload.typedData) }) };
      if (payload.type !== 'evm-transaction') return wrongType('viem', payload);
      const tx = viemTransaction(payload.transaction);
      if (mode === 'send') {
        // chain null: the wallet's own chain is not checked against a viem Chain object here; the
        // gateway checks the sent transaction's chainId against the payload's.
        const txHash = await client.sendTransaction({
          account,
          chain: null,
          to: tx.to,
          data: tx.data,
          value: tx.value,
        });
        return { txHash };
      }
      return { rawTx: await client.signTransaction({ account, chain: null, ...tx }) };
    },
  };
}
