import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DevnetError } from './devnet-error';

export const DEVNET_MNEMONIC = 'test test test test test test test test test test test junk';

export interface AnvilOptions {
  port: number;
  chainId: number;
  host?: string;
  mnemonic?: string;
  /** How many mnemonic accounts anvil funds with 10,000 ETH (indices 0..accounts-1). */
  accounts?: number;
  /** Bound on the wait for the RPC to answer. */
  startTimeoutMs?: number;
}

export interface AnvilNode {
  rpcUrl: string;
  chainId: number;
  pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * Path of the anvil binary shipped by npm `@foundry-rs/anvil` in its per-platform package.
 * `ANVIL_BIN` overrides it (e.g. a foundryup install on a platform npm does not cover).
 */
export function resolveAnvilBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env.ANVIL_BIN) return env.ANVIL_BIN;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let pkgJson: string;
  try {
    pkgJson = require.resolve(`${pkg}/package.json`);
  } catch {
    throw new DevnetError(
      'ANVIL_NOT_FOUND',
      `Package ${pkg} is not installed; run npm install (it is an optional dependency of @foundry-rs/anvil) or set ANVIL_BIN.`,
    );
  }
  const binary = path.join(
    path.dirname(pkgJson),
    'bin',
    process.platform === 'win32' ? 'anvil.exe' : 'anvil',
  );
  if (!fs.existsSync(binary)) {
    throw new DevnetError(
      'ANVIL_NOT_FOUND',
      `The anvil binary is missing at ${binary}; reinstall @foundry-rs/anvil or set ANVIL_BIN.`,
    );
  }
  return binary;
}

// Children still alive when the parent exits (crash, uncaught error) are killed synchronously so a
// failed run never leaves a chain holding its port.
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  child.once('exit', () => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of liveChildren) c.kill('SIGKILL');
    });
  }
}

/**
 * Starts a fresh anvil chain in automine mode (every transaction is mined at once, so deployment
 * is fast and deterministic) and waits, bounded, until its RPC answers with the expected chain id.
 */
export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  const host = options.host ?? '127.0.0.1';
  const rpcUrl = `http://${host}:${options.port}`;
  // A chain left over on the port would answer our readiness probe; refuse instead of reusing it.
  if (!(await portIsFree(host, options.port))) {
    throw new DevnetError(
      'ANVIL_START_FAILED',
      `Port ${host}:${options.port} is already in use (a devnet left running?); stop it or choose other ports.`,
      {
        port: options.port,
      },
    );
  }
  const args = [
    '--host',
    host,
    '--port',
    String(options.port),
    '--chain-id',
    String(options.chainId),
    '--mnemonic',
    options.mnemonic ?? DEVNET_MNEMONIC,
    '--accounts',
    String(options.accounts ?? 12),
  ];
  const child = spawn(resolveAnvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  trackChild(child);
  // Keep the tail of anvil's output for the error message if it fails to start.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );
  const stop = async (): Promise<void> => {
    if (exited) return;
    child.kill('SIGTERM');
    const killTimer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exitPromise;
    clearTimeout(killTimer);
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  for (;;) {
    if (exited) {
      throw new DevnetError(
        'ANVIL_START_FAILED',
        `anvil on port ${options.port} exited (code ${exited.code}, signal ${exited.signal}) before it was ready: ${output.trim().slice(-800)}`,
        { port: options.port },
      );
    }
    const chainId = await rpcChainId(rpcUrl);
    if (chainId === options.chainId) break;
    if (chainId !== undefined) {
      await stop();
      throw new DevnetError(
        'ANVIL_START_FAILED',
        `Port ${options.port} answers chain id ${chainId}, not ${options.chainId}: another node holds it.`,
        {
          port: options.port,
        },
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new DevnetError(
        'ANVIL_START_FAILED',
        `anvil on port ${options.port} did not answer within the start timeout: ${output.trim().slice(-800)}`,
        {
          port: options.port,
        },
      );
    }
    await delay(50);
  }
  return { rpcUrl, chainId: options.chainId, pid: child.pid, stop };
}

function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

async function rpcChainId(rpcUrl: string): Promise<number | undefined> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(BigInt(body.result)) : undefined;
  } catch {
    return undefined;
  }
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
