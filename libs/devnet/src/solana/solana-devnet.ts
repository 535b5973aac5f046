import type { SolanaDevnetBridge, SolanaDevnetManifest } from '@swapgw/chains/devnet-manifest';
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
import { SOLANA_BRIDGE_CHAIN_ID } from '@swapgw/chains/solana-bridge';
import { listenLocalChain } from '../local-http-server';
import { SolanaLedger } from './solana-ledger';
import { SolanaRpcServer } from './solana-rpc-server';
import {
  devnetKeypair,
  SOLANA_FEE_PAYER_COUNT,
  solanaBridgeAuthority,
  solanaFeePayer,
  solanaTestWallet,
} from './solana-keys';

export const SOLANA_DEVNET_CHAIN_ID = 'solana-devnet';
export const SOLANA_DEVNET_DEFAULT_PORT = 8899;
const USDC_DECIMALS = 6;
const WALLET_SOL = 100;
const WALLET_USDC = 1_000_000n;
/** SOL of each of signer-surface's fee payers: 200,000 sponsored transactions at 5,000 lamports. */
const FEE_PAYER_SOL = 1000;
/** USDC the bridge vault holds to pay EVM → Solana releases from, as each EVM bridge holds. */
const BRIDGE_LIQUIDITY_USDC = 10_000_000n;
const DEFAULT_SLOT_MS = 400;

// The manifest section this chain writes is declared with the manifest's schema.
export type { SolanaDevnetBridge, SolanaDevnetManifest };

export interface SolanaDevnetHandle {
  manifest: SolanaDevnetManifest;
  ledger: SolanaLedger;
  stop(): Promise<void>;
}

/**
 * Starts the local Solana chain: litesvm behind a JSON-RPC server on 127.0.0.1, an SPL USDC mint at a
 * deterministic address, funded test wallets (SOL and USDC) whose keys any client can derive, and
 * signer-surface's fee payers (SOL only; devnetSolanaFeePayerKeys).
 */
export async function startSolanaDevnet(
  options: { port?: number; host?: string; slotMs?: number } = {},
): Promise<SolanaDevnetHandle> {
  const slotMs = options.slotMs ?? DEFAULT_SLOT_MS;
  const ledger = new SolanaLedger({ slotMs });
  const server = new SolanaRpcServer(ledger);

  const authority = solanaBridgeAuthority();
  const mint = devnetKeypair('mint/USDC');
  ledger.airdrop(authority.publicKey, 1000 * LAMPORTS_PER_SOL);
  sendSolanaSeedingTransaction(
    ledger,
    authority,
    [mint],
    [
      SystemProgram.createAccount({
        fromPubkey: authority.publicKey,
        newAccountPubkey: mint.publicKey,
        lamports: ledger.minimumBalanceForRentExemption(MINT_SIZE),
        space: MINT_SIZE,
        programId: TOKEN_PROGRAM_ID,
      }),
      createInitializeMint2Instruction(mint.publicKey, USDC_DECIMALS, authority.publicKey, null),
    ],
  );

  const vault = getAssociatedTokenAddressSync(mint.publicKey, authority.publicKey);
  sendSolanaSeedingTransaction(
    ledger,
    authority,
    [],
    [
      createAssociatedTokenAccountIdempotentInstruction(
        authority.publicKey,
        vault,
        authority.publicKey,
        mint.publicKey,
      ),
      createMintToInstruction(
        mint.publicKey,
        vault,
        authority.publicKey,
        BRIDGE_LIQUIDITY_USDC * 10n ** BigInt(USDC_DECIMALS),
      ),
    ],
  );

  const accounts = fundSolanaTestWallets(ledger, authority, mint.publicKey);
  fundSolanaFeePayers(ledger);

  // Seeded before listening, so no client ever sees a half-funded chain.
  const host = options.host ?? '127.0.0.1';
  const port = await listenSolanaRpc(
    server,
    SOLANA_DEVNET_CHAIN_ID,
    options.port ?? SOLANA_DEVNET_DEFAULT_PORT,
    host,
  );
  ledger.start();

  const manifest: SolanaDevnetManifest = {
    id: SOLANA_DEVNET_CHAIN_ID,
    name: 'Solana Devnet (local)',
    family: 'solana',
    rpcUrl: `http://${host}:${port}`,
    nativeSymbol: 'SOL',
    tokens: { USDC: { mint: mint.publicKey.toBase58(), decimals: USDC_DECIMALS, name: 'USD Coin' } },
    bridgeAuthority: authority.publicKey.toBase58(),
    accounts,
    slotMs,
    bridge: {
      chainId: SOLANA_BRIDGE_CHAIN_ID,
      token: 'USDC',
      vault: vault.toBase58(),
      vaultOwner: authority.publicKey.toBase58(),
    },
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

/**
 * Test wallets 1-9 (solanaTestWallet): SOL, and USDC in their USDC associated token account, minted
 * by `mintAuthority` (which pays the accounts' rent). Returns them as the manifest lists them.
 */
export function fundSolanaTestWallets(
  ledger: SolanaLedger,
  mintAuthority: Keypair,
  mint: PublicKey,
): { index: number; address: string }[] {
  const accounts: { index: number; address: string }[] = [];
  for (let index = 1; index <= 9; index++) {
    const wallet = solanaTestWallet(index).publicKey;
    ledger.airdrop(wallet, WALLET_SOL * LAMPORTS_PER_SOL);
    const ata = getAssociatedTokenAddressSync(mint, wallet);
    sendSolanaSeedingTransaction(
      ledger,
      mintAuthority,
      [],
      [
        createAssociatedTokenAccountIdempotentInstruction(mintAuthority.publicKey, ata, wallet, mint),
        createMintToInstruction(
          mint,
          ata,
          mintAuthority.publicKey,
          WALLET_USDC * 10n ** BigInt(USDC_DECIMALS),
        ),
      ],
    );
    accounts.push({ index, address: wallet.toBase58() });
  }
  return accounts;
}

/** signer-surface's Solana fee payers 1..SOLANA_FEE_PAYER_COUNT (SOL only). */
export function fundSolanaFeePayers(ledger: SolanaLedger): void {
  for (let index = 1; index <= SOLANA_FEE_PAYER_COUNT; index++) {
    ledger.airdrop(solanaFeePayer(index).publicKey, FEE_PAYER_SOL * LAMPORTS_PER_SOL);
  }
}

/** Opens the JSON-RPC server of a local Solana chain; resolves with the port (0 = any free one). */
export function listenSolanaRpc(
  server: SolanaRpcServer,
  chain: string,
  requestedPort: number,
  host: string,
): Promise<number> {
  return listenLocalChain(server, chain, requestedPort, host, 'SOLANA_START_FAILED');
}

/** Sends a seeding transaction paid by `payer`; throws when it fails. */
export function sendSolanaSeedingTransaction(
  ledger: SolanaLedger,
  payer: Keypair,
  extraSigners: Keypair[],
  instructions: TransactionInstruction[],
): string {
  const tx = new Transaction({
    feePayer: payer.publicKey,
    recentBlockhash: ledger.latestBlockhash().blockhash,
  });
  tx.add(...instructions);
  tx.sign(payer, ...extraSigners);
  const signature = ledger.sendTransaction(tx.serialize());
  const status = ledger.signatureStatus(signature);
  if (status?.err) throw new Error(`devnet seeding transaction failed: ${JSON.stringify(status.err)}`);
  return signature;
}

export const usdcAccountOf = (manifest: SolanaDevnetManifest, owner: PublicKey): PublicKey =>
  getAssociatedTokenAddressSync(new PublicKey(manifest.tokens.USDC.mint), owner);
