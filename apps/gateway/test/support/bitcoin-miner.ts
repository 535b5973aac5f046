// The devnet Bitcoin miner's fee floor, through its devnet-only control (POST /devnet/miner/min-fee-rate):
// a package paying under it stays in the mempool unmined, as a real one does when fees rise.

export interface BitcoinMinerState {
  paused: boolean;
  blockMs: number;
  /** Sat/vB: the least a package pays to be mined. */
  minFeeRate: number;
}

export class DevnetBitcoinMiner {
  constructor(private readonly esploraUrl: string) {}

  async state(): Promise<BitcoinMinerState> {
    const response = await fetch(`${this.esploraUrl}/devnet/miner`);
    if (!response.ok) throw new Error(`GET /devnet/miner answered ${response.status}`);
    return (await response.json()) as BitcoinMinerState;
  }

  async setMinFeeRate(satsPerVbyte: number): Promise<BitcoinMinerState> {
    const response = await fetch(`${this.esploraUrl}/devnet/miner/min-fee-rate`, {
      method: 'POST',
      body: JSON.stringify({ satsPerVbyte }),
    });
    if (!response.ok)
      throw new Error(
        `POST /devnet/miner/min-fee-rate answered ${response.status}: ${await response.text()}`,
      );
    return (await response.json()) as BitcoinMinerState;
  }

  /** Runs `body` with the floor at `satsPerVbyte`, then puts back the floor it found. */
  async withMinFeeRate<T>(satsPerVbyte: number, body: () => Promise<T>): Promise<T> {
    const before = (await this.state()).minFeeRate;
    await this.setMinFeeRate(satsPerVbyte);
    try {
      return await body();
    } finally {
      await this.setMinFeeRate(before);
    }
  }
}
