import { LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { MINT_SIZE, MintLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import type { ChainDeployments } from '@swapgw/chains';
import { DevnetError } from '../devnet-error';
import { fundSolanaFeePayers, fundSolanaTestWallets, listenSolanaRpc } from '../solana/solana-devnet';
import { devnetKeypair } from '../solana/solana-keys';
import { SolanaLedger } from '../solana/solana-ledger';
import { SolanaRpcServer } from '../solana/solana-rpc-server';
import { REPLICA_SOLANA_CHAIN_ID } from './replica-parameters';

export interface SolanaReplicaHandle {
  id: typeof REPLICA_SOLANA_CHAIN_ID;
  rpcUrl: string;
  /** Test wallets 1-9 (solanaTestWallet): 100 SOL and 1,000,000 USDC each, as on the devnet. */
  accounts: { index: number; address: string }[];
  ledger: SolanaLedger;
  stop(): Promise<void>;
}

/**
 * The Solana replica: litesvm behind the devnet's JSON-RPC server, with the USDC mint written at
 * its canonical mainnet address (the catalog's) with its decimals, the test wallets and
 * signer-surface's fee payers funded as on the devnet. The mint authority (and freeze authority, as
 * Circle's mint has one) is a key of ours, `replica/usdc-mint-authority`. No bridge.
 */
export async function startSolanaReplica(options: {
  catalog: ChainDeployments;
  port: number;
  host?: string;
  slotMs?: number;
}): Promise<SolanaReplicaHandle> {
  const usdc = options.catalog.tokens.find((t) => t.symbol === 'USDC');
  if (!usdc)
    throw new DevnetError('SOLANA_START_FAILED', `catalog ${options.catalog.chain} has no USDC mint`);
  const ledger = new SolanaLedger({ slotMs: options.slotMs });
  const server = new SolanaRpcServer(ledger);

  const authority = devnetKeypair('replica/usdc-mint-authority');
  ledger.airdrop(authority.publicKey, 1000 * LAMPORTS_PER_SOL);
  const mint = new PublicKey(usdc.address);
  const data = Buffer.alloc(MINT_SIZE);
  MintLayout.encode(
    {
      mintAuthorityOption: 1,
      mintAuthority: authority.publicKey,
      supply: 0n,
      decimals: usdc.decimals,
      isInitialized: true,
      freezeAuthorityOption: 1,
      freezeAuthority: authority.publicKey,
    },
    data,
  );
  ledger.setAccount(mint, {
    lamports: ledger.minimumBalanceForRentExemption(MINT_SIZE),
    data,
    owner: TOKEN_PROGRAM_ID,
  });
  const accounts = fundSolanaTestWallets(ledger, authority, mint);
  fundSolanaFeePayers(ledger);

  const host = options.host ?? '127.0.0.1';
  const port = await listenSolanaRpc(server, REPLICA_SOLANA_CHAIN_ID, options.port, host);
  ledger.start();
  return {
    id: REPLICA_SOLANA_CHAIN_ID,
    rpcUrl: `http://${host}:${port}`,
    accounts,
    ledger,
    stop: async () => {
      ledger.stop();
      await server.close();
    },
  };
}
