import {
  AbstractSigner,
  type Provider,
  type Signer,
  type TransactionRequest,
  type TypedDataDomain,
  type TypedDataField,
} from 'ethers';

// Transactions of the devnet's test wallets go out with headroom over their gas estimate, as real
// wallets send them (MetaMask adds a margin; the product's own relayers send 120 %). An exact
// estimate is not enough through a Uniswap V2 pair: the estimate runs against the pending block,
// and a pair whose last trade was in an earlier block also writes its price accumulators when the
// transaction is mined, which an exact estimate leaves no gas for (the trade then reverts without a
// reason). Under load a block boundary often falls between the two.

/** The gas limit sent for an estimate of `gas`: a quarter more. */
export function withGasHeadroom(gas: bigint): bigint {
  return (gas * 5n) / 4n;
}

/**
 * `signer`, sending every transaction whose gas limit it is not given with withGasHeadroom over
 * the estimate; it signs and answers as `signer` does (its `address` too).
 */
export class GasHeadroomSigner extends AbstractSigner {
  readonly address: string;

  constructor(
    readonly signer: Signer & { readonly address: string },
    provider: Provider | null = signer.provider,
  ) {
    super(provider);
    this.address = signer.address;
  }

  getAddress(): Promise<string> {
    return this.signer.getAddress();
  }

  connect(provider: Provider | null): GasHeadroomSigner {
    return new GasHeadroomSigner(this.signer, provider);
  }

  override async estimateGas(tx: TransactionRequest): Promise<bigint> {
    return withGasHeadroom(await super.estimateGas(tx));
  }

  signTransaction(tx: TransactionRequest): Promise<string> {
    return this.signer.signTransaction(tx);
  }

  signMessage(message: string | Uint8Array): Promise<string> {
    return this.signer.signMessage(message);
  }

  signTypedData(
    domain: TypedDataDomain,
    types: Record<string, TypedDataField[]>,
    value: Record<string, unknown>,
  ): Promise<string> {
    return this.signer.signTypedData(domain, types, value);
  }
}
