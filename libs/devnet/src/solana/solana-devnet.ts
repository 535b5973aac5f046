import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { SolanaLedger } from './solana-ledger';
import { SolanaRpcServer } from './solana-rpc-server';
import { devnetKeypair, solanaTestWallet } from './solana-keys';

export const SOLANA_DEVNET_CHAIN_ID = 'solana-devnet';
export const SOLANA_DEVNET_DEFAULT_PORT = 8899;
const USDC_DECIMALS = 6;
const WALLET_SOL = 100;
const WALLET_USDC = 1_000_000n;

export interface SolanaDevnetManifest {
  id: typeof SOLANA_DEVNET_CHAIN_ID;
  name: string;
  family: 'solana';
  rpcUrl: string;
  nativeSymbol: 'SOL';
  tokens: { USDC: { mint: string; decimals: number; name: string } };
  /** Holds the USDC mint authority: the bridge relayer mints on Solana with it. */
  bridgeAuthority: string;
  /** Test wallets 1..9: Keypair.fromSeed(sha256(`swapgw-devnet/solana/wallet/${index}`)). */
  accounts: { index: number; address: string }[];
}

export interface SolanaDevnetHandle {
  manifest: SolanaDevnetManifest;
  ledger: SolanaLedger;
  stop(): Promise<void>;
}

/**
 * Starts the local Solana chain: litesvm behind a JSON-RPC server on 127.0.0.1, an SPL USDC mint at a
 * deterministic address, and funded test wallets (SOL and USDC) whose keys any client can derive.
 */
export async function startSolanaDevnet(options: { port?: number; slotMs?: number } = {}): Promise<SolanaDevnetHandle> {
  const ledger = new SolanaLedger({ slotMs: options.slotMs });
  const server = new SolanaRpcServer(ledger);
  const port = await server.listen(options.port ?? SOLANA_DEVNET_DEFAULT_PORT);
  ledger.start();

  const authority = devnetKeypair('bridge-authority');
  const mint = devnetKeypair('mint/USDC');
  ledger.airdrop(authority.publicKey, 1000 * LAMPORTS_PER_SOL);
  send(ledger, authority, [mint], [
    SystemProgram.createAccount({
      fromPubkey: authority.publicKey,
      newAccountPubkey: mint.publicKey,
      lamports: ledger.minimumBalanceForRentExemption(MINT_SIZE),
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    createInitializeMint2Instruction(mint.publicKey, USDC_DECIMALS, authority.publicKey, null),
  ]);

  const accounts: { index: number; address: string }[] = [];
  for (let index = 1; index <= 9; index++) {
    const wallet = solanaTestWallet(index).publicKey;
    ledger.airdrop(wallet, WALLET_SOL * LAMPORTS_PER_SOL);
    const ata = getAssociatedTokenAddressSync(mint.publicKey, wallet);
    send(ledger, authority, [], [
      createAssociatedTokenAccountIdempotentInstruction(authority.publicKey, ata, wallet, mint.publicKey),
      createMintToInstruction(mint.publicKey, ata, authority.publicKey, WALLET_USDC * 10n ** BigInt(USDC_DECIMALS)),
    ]);
    accounts.push({ index, address: wallet.toBase58() });
  }

  const manifest: SolanaDevnetManifest = {
    id: SOLANA_DEVNET_CHAIN_ID,
    name: 'Solana Devnet (local)',
    family: 'solana',
    rpcUrl: `http://127.0.0.1:${port}`,
    nativeSymbol: 'SOL',
    tokens: { USDC: { mint: mint.publicKey.toBase58(), decimals: USDC_DECIMALS, name: 'USD Coin' } },
    bridgeAuthority: authority.publicKey.toBase58(),
    accounts,
  };
  return {
    manifest,
    ledger,
    stop: async () => {
      ledger.stop();
      await server.close();
    },
  };
}

function send(ledger: SolanaLedger, payer: Keypair, extraSigners: Keypair[], instructions: TransactionInstruction[]): string {
  const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: ledger.latestBlockhash().blockhash });
  tx.add(...instructions);
  tx.sign(payer, ...extraSigners);
  const signature = ledger.sendTransaction(tx.serialize());
  const status = ledger.signatureStatus(signature);
  if (status?.err) throw new Error(`devnet seeding transaction failed: ${JSON.stringify(status.err)}`);
  return signature;
}

export const usdcAccountOf = (manifest: SolanaDevnetManifest, owner: PublicKey): PublicKey =>
  getAssociatedTokenAddressSync(new PublicKey(manifest.tokens.USDC.mint), owner);
