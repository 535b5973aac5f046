export interface DevnetUpArgs {
  command: 'up';
  manifestPath: string;
  /** Start the mainnet replica (libs/devnet/src/replica) instead of the devnet. */
  mainnetReplica: boolean;
  portA?: number;
  portB?: number;
  /** Mainnet replica ports. */
  portEthereum?: number;
  portBase?: number;
  portArbitrum?: number;
  portSolana?: number;
  /** The Bitcoin chain's Esplora API (the devnet's `bitcoin-devnet`, the replica's `bitcoin`). */
  portBitcoin?: number;
  blockTimeSeconds?: number;
}

export const DEVNET_USAGE =
  'usage: devnet up --manifest <path> [--port-a <port>] [--port-b <port>] [--port-solana <port>] [--port-bitcoin <port>] [--block-time <seconds>]\n' +
  '       devnet up --mainnet-replica --manifest <path> [--port-ethereum <port>] [--port-base <port>] [--port-arbitrum <port>] [--port-solana <port>] [--port-bitcoin <port>] [--block-time <seconds>]';

const VALUE_OPTIONS = [
  '--manifest',
  '--port-a',
  '--port-b',
  '--port-ethereum',
  '--port-base',
  '--port-arbitrum',
  '--port-solana',
  '--port-bitcoin',
  '--block-time',
];
const DEVNET_ONLY = ['--port-a', '--port-b'];
const REPLICA_ONLY = ['--port-ethereum', '--port-base', '--port-arbitrum'];

/**
 * Parses `up [--mainnet-replica] --manifest <path> [--port-<chain> N ...] [--block-time N]`; throws
 * with the usage. The devnet's chain ports and the replica's are exclusive of each other.
 */
export function parseDevnetArgs(argv: string[]): DevnetUpArgs {
  const [command, ...rest] = argv;
  if (command !== 'up') throw new Error(`unknown command ${command ?? '(none)'}\n${DEVNET_USAGE}`);
  const values = new Map<string, string>();
  let mainnetReplica = false;
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    if (flag === '--mainnet-replica') {
      mainnetReplica = true;
      continue;
    }
    if (!VALUE_OPTIONS.includes(flag)) throw new Error(`unknown option ${flag}\n${DEVNET_USAGE}`);
    const value = rest[++i];
    if (value === undefined || value.startsWith('--'))
      throw new Error(`${flag} needs a value\n${DEVNET_USAGE}`);
    values.set(flag, value);
  }
  const manifestPath = values.get('--manifest');
  if (!manifestPath) throw new Error(`--manifest is required\n${DEVNET_USAGE}`);
  const misplaced = (mainnetReplica ? DEVNET_ONLY : REPLICA_ONLY).find((flag) => values.has(flag));
  if (misplaced)
    throw new Error(
      mainnetReplica
        ? `${misplaced} is a devnet port; the mainnet replica takes --port-ethereum, --port-base, --port-arbitrum\n${DEVNET_USAGE}`
        : `${misplaced} is a mainnet replica port: add --mainnet-replica\n${DEVNET_USAGE}`,
    );
  const port = (flag: string) => integerOption(values, flag, 1, 65535);
  return {
    command,
    manifestPath,
    mainnetReplica,
    portA: port('--port-a'),
    portB: port('--port-b'),
    portEthereum: port('--port-ethereum'),
    portBase: port('--port-base'),
    portArbitrum: port('--port-arbitrum'),
    portSolana: port('--port-solana'),
    portBitcoin: port('--port-bitcoin'),
    blockTimeSeconds: integerOption(values, '--block-time', 1, 3600),
  };
}

function integerOption(
  values: Map<string, string>,
  flag: string,
  min: number,
  max: number,
): number | undefined {
  const raw = values.get(flag);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw new Error(`${flag} must be an integer in [${min}, ${max}], got ${raw}`);
  return value;
}
