import { loadEvmArtifacts, swapGatewayRouterAddress } from '@swapgw/evm-contracts';
import { REAL_NETWORK_CATALOG } from '@swapgw/chains';
import { ContractsCliError, describeRouterAddress, parseContractsArgs } from './contracts';

describe('npm run contracts', () => {
  it('address: the CREATE2 address of the compiled router, which the catalog names on every EVM chain', () => {
    expect(parseContractsArgs(['address'], {})).toEqual({ command: 'address' });
    const [first, ...how] = describeRouterAddress(loadEvmArtifacts());
    const address = swapGatewayRouterAddress(loadEvmArtifacts());
    expect(first).toBe(`SwapGatewayRouter ${address}`);
    expect(how.join('\n')).toMatch(/0x4e59b44847b379578588920cA78FbF26c0B4956C/);
    expect(REAL_NETWORK_CATALOG.find((e) => e.chain === 'base')?.gatewayRouter).toBe(address);
  });

  it('deploy: a catalog chain, its RPC from --rpc-url or its RPC_URL_* variable, an optional key file', () => {
    expect(
      parseContractsArgs(['deploy', '--chain', 'base', '--key-file', '/run/key'], {
        RPC_URL_BASE: 'http://b',
      }),
    ).toEqual({
      command: 'deploy',
      chain: 'base',
      chainId: 8453,
      rpcUrl: 'http://b',
      keyFile: '/run/key',
    });
    expect(
      parseContractsArgs(['deploy', '--chain', 'arbitrum', '--rpc-url', 'http://a'], {
        RPC_URL_ARBITRUM: 'http://x',
      }),
    ).toMatchObject({ chainId: 42161, rpcUrl: 'http://a', keyFile: undefined });
  });

  it('refuses what it cannot do, saying why', () => {
    expect(() => parseContractsArgs([], {})).toThrow(/usage/);
    expect(() => parseContractsArgs(['deploy'], {})).toThrow(/--chain is required/);
    expect(() => parseContractsArgs(['deploy', '--chain', 'solana'], {})).toThrow(ContractsCliError);
    expect(() => parseContractsArgs(['deploy', '--chain', 'base'], {})).toThrow(/RPC_URL_BASE/);
    expect(() => parseContractsArgs(['deploy', '--chain', 'base', '--rpc-url'], {})).toThrow(/needs a value/);
  });
});
