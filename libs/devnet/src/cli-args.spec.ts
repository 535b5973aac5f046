import { parseDevnetArgs } from './cli-args';

describe('parseDevnetArgs', () => {
  it('reads the manifest path and optional ports and block time', () => {
    expect(parseDevnetArgs(['up', '--manifest', '.run/devnet/manifest.json'])).toEqual({
      command: 'up',
      manifestPath: '.run/devnet/manifest.json',
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
      portA: 38545,
      portB: 38546,
      portSolana: 38899,
      blockTimeSeconds: 2,
    });
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
  ])('rejects %j', (argv, message) => {
    expect(() => parseDevnetArgs(argv)).toThrow(message);
  });
});
