import { REAL_NETWORKS, type ChainDescriptor } from '@swapgw/chains';
import { bitcoinStepOf } from '@swapgw/chains/families';
import type { RouteLeg } from '@swapgw/contracts';

// What the THORChain specs share (imported by specs only): the chains they quote between and the
// deposit memo the planner writes for a leg.

/** A real network of the shipped catalog, as quote-service resolves it. */
export function realNetwork(id: string): ChainDescriptor {
  const chain = REAL_NETWORKS.find((network) => network.id === id);
  if (!chain) throw new Error(`${id} is not a real network of the catalog`);
  return { ...chain };
}

/** The devnet's Bitcoin chain (regtest) as the registry describes it from the manifest. */
export function devnetBitcoin(manifest: { id: string; name: string }): ChainDescriptor {
  return {
    id: manifest.id,
    name: manifest.name,
    family: 'bitcoin',
    network: 'testnet',
    caip2: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
    nativeSymbol: 'BTC',
    nativeDecimals: 8,
    devnet: true,
    bitcoinNetwork: 'regtest',
  };
}

/** The OP_RETURN memo of the deposit step the planner builds for `leg`, paying `recipient` at least `minOut`. */
export function depositMemoOf(leg: RouteLeg, recipient: string, minOut = BigInt(leg.minAmountOut)): string {
  const spec = bitcoinStepOf(
    {
      step: { legIndex: 0, kind: 'bridge', signing: 'bitcoin-psbt' },
      leg,
      spend: BigInt(leg.amountIn),
      minOut,
      signer: 'bc1q-signer',
      recipient,
      finalRecipient: recipient,
      deadline: 0n,
      sponsored: true,
    },
    { familyOf: () => 'bitcoin' } as never,
  );
  if (!spec.bitcoin) throw new Error('the leg is not a Bitcoin deposit');
  return spec.bitcoin.memo;
}
