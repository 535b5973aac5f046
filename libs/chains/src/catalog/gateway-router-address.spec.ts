import {
  CANONICAL_PERMIT2 as DEPLOYED_PERMIT2,
  loadEvmArtifacts,
  swapGatewayRouterAddress,
} from '@swapgw/evm-contracts';
import { CANONICAL_PERMIT2, REAL_NETWORK_CATALOG, SWAP_GATEWAY_ROUTER } from './real-networks';

// The catalog names the router where `npm run contracts -- deploy` puts it: CREATE2 through the
// deterministic deployment proxy, a fixed salt and the compiled init code. Any change to the
// contract, the compiler or its settings moves that address: this fails until the catalog (and
// docs/chains.md) follow, so they never drift from what would be deployed.
describe('the catalog SwapGatewayRouter', () => {
  const compiled = swapGatewayRouterAddress(loadEvmArtifacts(), CANONICAL_PERMIT2);

  it('is the CREATE2 address of the compiled router, with the catalog Permit2 as its constructor argument', () => {
    expect(DEPLOYED_PERMIT2).toBe(CANONICAL_PERMIT2);
    expect(SWAP_GATEWAY_ROUTER).toBe(compiled);
  });

  it('is the same address on every EVM chain of the catalog', () => {
    const evm = REAL_NETWORK_CATALOG.filter((entry) => entry.chain !== 'solana');
    expect(evm.map((entry) => [entry.chain, entry.gatewayRouter, entry.permit2])).toEqual(
      evm.map((entry) => [entry.chain, compiled, CANONICAL_PERMIT2]),
    );
  });
});
