import { makeCosmoshubPath } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient } from '@cosmjs/stargate';
import { base64 } from '@scure/base';
import { DEVNET_MNEMONIC, type CosmosDevnetChainManifest } from '@swapgw/devnet';
import { devnetManifest } from './devnet-evm';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';

/** The `cosmos-sign-direct` payload's SignDoc, as the gateway issues it (base64 bytes, decimal account number). */
export interface IssuedSignDoc {
  bodyBytes: string;
  authInfoBytes: string;
  chainId: string;
  accountNumber: string;
}

/** A fresh Keplr-like wallet (DIRECT) on the Hub holding exactly `amount` uatom and no other coin, funded by devnet wallet `funderIndex`. */
export async function hubWalletHoldingOnly(
  hub: CosmosDevnetChainManifest,
  amount: bigint,
  funderIndex: number,
  onClient: (client: SigningStargateClient) => void,
) {
  const held = await walletHoldingOnly(hub, 'uatom', amount, funderIndex, onClient);
  const osmosisWallet = await DirectSecp256k1HdWallet.fromMnemonic(held.wallet.mnemonic, { prefix: 'osmo' });
  const [onOsmosis] = await osmosisWallet.getAccounts();
  return { ...held, receiver: onOsmosis.address };
}

/**
 * A fresh Keplr-like wallet (DIRECT) on `chain` holding exactly `amount` of `denom` and no other coin,
 * funded by devnet wallet `funderIndex` (its `publicKey` in hex, as Keplr's getKey tells it).
 */
export async function walletHoldingOnly(
  chain: CosmosDevnetChainManifest,
  denom: string,
  amount: bigint,
  funderIndex: number,
  onClient: (client: SigningStargateClient) => void,
) {
  const prefix = chain.bech32Prefix;
  const wallet = await DirectSecp256k1HdWallet.generate(12, { prefix });
  const [user] = await wallet.getAccounts();
  const funderSigner = await DirectSecp256k1HdWallet.fromMnemonic(DEVNET_MNEMONIC, {
    prefix,
    hdPaths: [makeCosmoshubPath(funderIndex)],
  });
  const [funder] = await funderSigner.getAccounts();
  const funding = await SigningStargateClient.connectWithSigner(chain.rpc, funderSigner, {
    gasPrice: GasPrice.fromString(chain.minGasPrice),
    broadcastPollIntervalMs: 100,
  });
  onClient(funding);
  const sent = await funding.sendTokens(
    funder.address,
    user.address,
    [{ denom, amount: amount.toString() }],
    'auto',
  );
  if (sent.code !== 0) throw new Error(`funding the wallet failed: ${sent.rawLog}`);
  return { wallet, user, publicKey: Buffer.from(user.pubkey).toString('hex') };
}

/** The SignDoc as a wallet's signDirect takes it. */
export function signDocOf(issued: IssuedSignDoc) {
  return {
    bodyBytes: base64.decode(issued.bodyBytes),
    authInfoBytes: base64.decode(issued.authInfoBytes),
    chainId: issued.chainId,
    accountNumber: BigInt(issued.accountNumber),
  };
}

/** `wallet` signs the issued SignDoc as Keplr's signDirect does; the TxRaw (base64) to submit. */
export async function signIssued(
  wallet: DirectSecp256k1HdWallet,
  address: string,
  issued: IssuedSignDoc,
): Promise<string> {
  const { signed, signature } = await wallet.signDirect(address, signDocOf(issued));
  return base64.encode(
    TxRaw.encode({
      bodyBytes: signed.bodyBytes,
      authInfoBytes: signed.authInfoBytes,
      signatures: [base64.decode(signature.signature)],
    }).finish(),
  );
}

/** The test run's devnet Cosmos chain `id` (its manifest entry: rpc, rest, channels). */
export function devnetCosmosChain(id: string): CosmosDevnetChainManifest {
  const chain = devnetManifest().cosmos.find((c) => c.id === id);
  if (!chain) throw new Error(`the devnet has no Cosmos chain ${id}`);
  return chain;
}
