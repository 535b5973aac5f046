// Bitcoin wallet adapters: a bitcoin-psbt payload signed through a browser wallet's own `signPsbt`,
// in the three shapes wallets expose it (Unisat; Xverse through sats-connect; Leather). Like the EVM
// adapters they use only the object they are given, so the package loads without any wallet library.
// The wallet signs only the inputs the payload lists (its own); the service's fee input stays
// unsigned, and the gateway takes the PSBT back as the wallet returns it (finalized inputs or only
// signatures, base64 or hex).
import type { components } from './gateway-api';
import type { SigningPayload, SwapSigner } from './signers';
import { base64ToBytes } from './base64';

export type BitcoinPsbtPayload = components['schemas']['BitcoinPsbtPayloadDto'];

/** Unisat's `window.unisat` (and wallets that copy its API, e.g. OKX's `okxwallet.bitcoin`). */
export interface UnisatLike {
  /** Hex PSBT in, hex PSBT out. */
  signPsbt(
    psbtHex: string,
    options?: {
      autoFinalized?: boolean;
      toSignInputs?: Array<{ index: number; address?: string; sighashTypes?: number[] }>;
    },
  ): Promise<string>;
}

/** The answer of sats-connect's `request` (Xverse): a result, or an error (the user declined...). */
export type SatsConnectResponse<T> =
  { status: 'success'; result: T } | { status: 'error'; error: { code: number; message: string } };

/** sats-connect's `request('signPsbt', …)`, as `import { request } from 'sats-connect'` gives it. */
export type SatsConnectRequest = (
  method: 'signPsbt',
  params: { psbt: string; signInputs: Record<string, number[]>; broadcast?: boolean },
) => Promise<SatsConnectResponse<{ psbt: string; txid?: string }>>;

/** Leather's `window.LeatherProvider` (its RPC `request`; a declined request rejects). */
export interface LeatherLike {
  request(
    method: 'signPsbt',
    params: { hex: string; signAtIndex?: number | number[]; broadcast?: boolean; network?: string },
  ): Promise<{ result: { hex: string } }>;
}

function psbtPayloadOf(adapter: string, payload: SigningPayload): BitcoinPsbtPayload {
  if (payload.type !== 'bitcoin-psbt')
    throw new Error(`the ${adapter} signer cannot sign a ${payload.type} payload`);
  return payload;
}

/** Unisat: `signPsbt` with the inputs to sign (index, address, sighash types), left unfinalized. */
export function unisatSigner(wallet: UnisatLike): SwapSigner {
  return {
    handles: ['bitcoin-psbt'],
    async sign(payload) {
      const psbt = psbtPayloadOf('Unisat', payload);
      const signed = await wallet.signPsbt(base64ToHex(psbt.psbt), {
        // The fee input is the service's: a wallet that finalized "all" inputs would fail on it.
        autoFinalized: false,
        toSignInputs: psbt.inputsToSign.map(({ index, address, sighashTypes }) => ({
          index,
          address,
          sighashTypes,
        })),
      });
      return { rawTx: signed };
    },
  };
}

/** Xverse through sats-connect: `request('signPsbt')` with the indexes each address signs, not broadcast. */
export function satsConnectSigner(request: SatsConnectRequest): SwapSigner {
  return {
    handles: ['bitcoin-psbt'],
    async sign(payload) {
      const psbt = psbtPayloadOf('sats-connect', payload);
      const signInputs: Record<string, number[]> = {};
      for (const input of psbt.inputsToSign) (signInputs[input.address] ??= []).push(input.index);
      const answer = await request('signPsbt', { psbt: psbt.psbt, signInputs, broadcast: false });
      if (answer.status !== 'success')
        throw new Error(`the wallet did not sign (${answer.error.code}): ${answer.error.message}`);
      return { rawTx: answer.result.psbt };
    },
  };
}

/** Leather: `request('signPsbt')` with the payload's input indexes, not broadcast. */
export function leatherSigner(provider: LeatherLike): SwapSigner {
  return {
    handles: ['bitcoin-psbt'],
    async sign(payload) {
      const psbt = psbtPayloadOf('Leather', payload);
      const { result } = await provider.request('signPsbt', {
        hex: base64ToHex(psbt.psbt),
        signAtIndex: psbt.inputsToSign.map((input) => input.index),
        network: psbt.network,
        broadcast: false,
      });
      return { rawTx: result.hex };
    },
  };
}

/** Base64 to lowercase hex, with what browsers and Node both have (atob). */
export function base64ToHex(text: string): string {
  let hex = '';
  for (const byte of base64ToBytes(text)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
