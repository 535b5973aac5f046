#!/usr/bin/env node
// `node dist/libs/devnet/src/cli.js up [--mainnet-replica] --manifest <path>`: runs the devnet (or,
// with --mainnet-replica, the mainnet replica instead) in the foreground until SIGTERM/SIGINT, then
// stops the relayer and the chains (devnet: two anvil, one Solana, one Bitcoin, three Cosmos; replica: three anvil,
// one Solana).
// The replica reads the shipped catalog from @swapgw/chains, which loads decorated message classes:
// reflect-metadata first, as in every CLI of the suite.
import 'reflect-metadata';
import path from 'node:path';
import { parseDevnetArgs, DevnetUpArgs } from './cli-args';
import { startMainnetReplica } from './replica/start-mainnet-replica';
import { startDevnet } from './start-devnet';

interface RunningChains {
  stop(): Promise<void>;
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseDevnetArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(64); // EX_USAGE
  }
  const manifestPath = path.resolve(args.manifestPath);
  // A signal during start-up exits at once; the exit hook in anvil.ts kills the chains started
  // so far (a process killed by the default signal action would leave them running).
  const exitDuringStartup = (signal: NodeJS.Signals) => {
    process.stderr.write(`${signal} during start-up: exiting\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGTERM', exitDuringStartup);
  process.on('SIGINT', exitDuringStartup);
  const devnet = args.mainnetReplica
    ? await startReplica(args, manifestPath)
    : await startDefault(args, manifestPath);
  process.stdout.write(`manifest: ${manifestPath}\ndevnet ready\n`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${signal}: stopping devnet\n`);
    devnet.stop().then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`devnet stop failed: ${error.message}\n`);
        process.exit(1);
      },
    );
  };
  process.off('SIGTERM', exitDuringStartup);
  process.off('SIGINT', exitDuringStartup);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

async function startDefault(args: DevnetUpArgs, manifestPath: string): Promise<RunningChains> {
  const devnet = await startDevnet({
    manifestPath,
    portA: args.portA,
    portB: args.portB,
    portSolana: args.portSolana,
    portBitcoin: args.portBitcoin,
    blockTimeSeconds: args.blockTimeSeconds,
  });
  for (const chain of devnet.manifest.chains)
    process.stdout.write(`${chain.id}: chain id ${chain.chainId} at ${chain.rpcUrl}\n`);
  const solana = devnet.manifest.solana;
  process.stdout.write(`${solana.id}: bridge chain id ${solana.bridge.chainId} at ${solana.rpcUrl}\n`);
  const bitcoin = devnet.manifest.bitcoin;
  process.stdout.write(
    `${bitcoin.id}: bridge chain id ${bitcoin.bridge.chainId} at ${bitcoin.esploraUrl} (Esplora API, regtest)\n`,
  );
  process.stdout.write(
    `solana test wallets (SOL, USDC): ${solana.accounts.map((a) => `${a.index} ${a.address}`).join(', ')}\n`,
  );
  process.stdout.write(
    `bitcoin test wallets (5 BTC each, m/84'/1'/0'/0/<index>): ${bitcoin.accounts.map((a) => `${a.index} ${a.address}`).join(', ')}\n`,
  );
  for (const chain of devnet.manifest.cosmos) {
    process.stdout.write(`${chain.id}: CometBFT RPC at ${chain.rpc}, REST at ${chain.rest}\n`);
    process.stdout.write(
      `${chain.id} test wallets (1000 ${chain.nativeSymbol} each, m/44'/118'/0'/0/<index>): ${chain.accounts.map((a) => `${a.index} ${a.address}`).join(', ')}\n`,
    );
  }
  return devnet;
}

async function startReplica(args: DevnetUpArgs, manifestPath: string): Promise<RunningChains> {
  const startedAt = Date.now();
  const replica = await startMainnetReplica({
    manifestPath,
    portEthereum: args.portEthereum,
    portBase: args.portBase,
    portArbitrum: args.portArbitrum,
    portSolana: args.portSolana,
    portBitcoin: args.portBitcoin,
    blockTimeSeconds: args.blockTimeSeconds,
  });
  const { evm, solana, bitcoin } = replica.manifest.mainnetReplica;
  process.stdout.write(`mainnet replica (catalog addresses) up in ${Date.now() - startedAt} ms\n`);
  for (const chain of evm)
    process.stdout.write(`${chain.id}: chain id ${chain.chainId} at ${chain.rpcUrl}\n`);
  process.stdout.write(`${solana.id}: at ${solana.rpcUrl}\n`);
  process.stdout.write(
    `test accounts (ETH, USDC, WETH): ${replica.manifest.accounts.map((a) => `${a.index} ${a.address}`).join(', ')}\n`,
  );
  process.stdout.write(
    `solana test wallets (SOL, USDC): ${solana.accounts.map((a) => `${a.index} ${a.address}`).join(', ')}\n`,
  );
  if (bitcoin)
    process.stdout.write(
      `${bitcoin.id}: Esplora API at ${bitcoin.esploraUrl}, THORNode at ${bitcoin.thorchain.thornodeUrl}; ` +
        `test wallets (BTC, m/84'/0'/0'/0/<index>): ${bitcoin.accounts.map((a) => `${a.index} ${a.address}`).join(', ')}\n`,
    );
  return replica;
}

main().catch((error: Error) => {
  process.stderr.write(`devnet failed to start: ${error.message}\n`);
  process.exit(1);
});
