export interface DevnetUpArgs {
  command: 'up';
  manifestPath: string;
  portA?: number;
  portB?: number;
  portSolana?: number;
  blockTimeSeconds?: number;
}

export const DEVNET_USAGE =
  'usage: devnet up --manifest <path> [--port-a <port>] [--port-b <port>] [--port-solana <port>] [--block-time <seconds>]';

/** Parses `up --manifest <path> [--port-a N] [--port-b N] [--port-solana N] [--block-time N]`; throws with the usage. */
export function parseDevnetArgs(argv: string[]): DevnetUpArgs {
  const [command, ...rest] = argv;
  if (command !== 'up') throw new Error(`unknown command ${command ?? '(none)'}\n${DEVNET_USAGE}`);
  const values = new Map<string, string>();
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i];
    const value = rest[i + 1];
    if (!['--manifest', '--port-a', '--port-b', '--port-solana', '--block-time'].includes(flag))
      throw new Error(`unknown option ${flag}\n${DEVNET_USAGE}`);
    if (value === undefined || value.startsWith('--'))
      throw new Error(`${flag} needs a value\n${DEVNET_USAGE}`);
    values.set(flag, value);
  }
  const manifestPath = values.get('--manifest');
  if (!manifestPath) throw new Error(`--manifest is required\n${DEVNET_USAGE}`);
  return {
    command,
    manifestPath,
    portA: integerOption(values, '--port-a', 1, 65535),
    portB: integerOption(values, '--port-b', 1, 65535),
    portSolana: integerOption(values, '--port-solana', 1, 65535),
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
