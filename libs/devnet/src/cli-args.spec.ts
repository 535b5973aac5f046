import { parseDevnetArgs } from './cli-args';

describe('parseDevnetArgs', () => {
  it('reads the manifest path and optional ports and block time', () => {
    expect(parseDevnetArgs(['up', '--manifest', '.run/devnet/manifest.json'])).toEqual({
      command: 'up',
      manifestPath: '.run/devnet/manifest.json',
      mainnetReplica: false,
      portA: undefined,
      portB: undefined,
      portSolana: undefined,
      blockTimeSeconds: undefined,
    });
    expect(
      parseDevnetArgs([
        'up',
        '--port-b',
        '38546',
        '--manifest',
        'm.json',
        '--port-a',
        '38545',
        '--block-time',
        '2',
        '--port-solana',
        '38899',
      ]),
    ).toEqual({
      command: 'up',
      manifestPath: 'm.json',
      mainnetReplica: false,
      portA: 38545,
      portB: 38546,
      portSolana: 38899,
      blockTimeSeconds: 2,
    });
  });

  it("reads --mainnet-replica and the replica chains' ports", () => {
    expect(
      parseDevnetArgs([
        'up',
        '--mainnet-replica',
        '--manifest',
        'm.json',
        '--port-ethereum',
        '38545',
        '--port-base',
        '38546',
        '--port-arbitrum',
        '38547',
      ]),
    ).toEqual({
      command: 'up',
      manifestPath: 'm.json',
      mainnetReplica: true,
      portEthereum: 38545,
      portBase: 38546,
      portArbitrum: 38547,
    });
    expect(parseDevnetArgs(['up', '--manifest', 'm.json', '--mainnet-replica']).mainnetReplica).toBe(true);
  });

  it.each([
    [[], /unknown command \(none\)/],
    [['down'], /unknown command down/],
    [['up'], /--manifest is required/],
    [['up', '--manifest'], /--manifest needs a value/],
    [['up', '--manifest', 'm.json', '--port', '1'], /unknown option --port/],
    [['up', '--manifest', 'm.json', '--port-a', '70000'], /--port-a must be an integer in \[1, 65535\]/],
    [['up', '--manifest', 'm.json', '--port-a', '85.5'], /--port-a must be an integer/],
    [
      ['up', '--manifest', 'm.json', '--port-solana', '0'],
      /--port-solana must be an integer in \[1, 65535\]/,
    ],
    [['up', '--manifest', 'm.json', '--block-time', '0'], /--block-time must be an integer in \[1, 3600\]/],
    [
      ['up', '--manifest', 'm.json', '--port-base', '1'],
      /--port-base is a mainnet replica port: add --mainnet-replica/,
    ],
    [['up', '--mainnet-replica', '--manifest', 'm.json', '--port-a', '1'], /--port-a is a devnet port/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseDevnetArgs(argv)).toThrow(message);
  });
});
