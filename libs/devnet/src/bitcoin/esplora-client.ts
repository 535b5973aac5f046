/**
 * A minimal Esplora HTTP client, as a wallet uses one: the devnet bridge's Bitcoin end and the
 * tests read and broadcast through it, never through the chain's objects.
 */
export class EsploraClient {
  constructor(private readonly baseUrl: string) {}

  async json<T>(path: string): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`);
    if (!response.ok) throw new EsploraError(response.status, await response.text(), path);
    return (await response.json()) as T;
  }

  async text(path: string): Promise<string> {
    const response = await fetch(`${this.baseUrl}${path}`);
    const body = await response.text();
    if (!response.ok) throw new EsploraError(response.status, body, path);
    return body;
  }

  /** POST /tx; the txid, or EsploraError carrying bitcoind's reason. */
  async broadcast(hex: string): Promise<string> {
    const response = await fetch(`${this.baseUrl}/tx`, { method: 'POST', body: hex });
    const body = await response.text();
    if (!response.ok) throw new EsploraError(response.status, body, '/tx');
    return body;
  }

  utxos(address: string): Promise<EsploraUtxo[]> {
    return this.json<EsploraUtxo[]>(`/address/${address}/utxo`);
  }

  async tipHeight(): Promise<number> {
    return Number(await this.text('/blocks/tip/height'));
  }
}

export class EsploraError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    path: string,
  ) {
    super(`Esplora ${path} answered ${status}: ${body}`);
    this.name = 'EsploraError';
  }
}

export interface EsploraUtxo {
  txid: string;
  vout: number;
  value: number;
  status: { confirmed: boolean; block_height?: number; block_hash?: string; block_time?: number };
}

export interface EsploraOutput {
  scriptpubkey: string;
  scriptpubkey_asm: string;
  scriptpubkey_type: string;
  scriptpubkey_address?: string;
  value: number;
}

export interface EsploraTransaction {
  txid: string;
  version: number;
  locktime: number;
  vin: {
    txid: string;
    vout: number;
    prevout: EsploraOutput | null;
    scriptsig: string;
    scriptsig_asm: string;
    witness?: string[];
    is_coinbase: boolean;
    sequence: number;
    /** A P2SH spend's redeem script (the scriptSig's last push), in asm. */
    inner_redeemscript_asm?: string;
  }[];
  vout: EsploraOutput[];
  size: number;
  weight: number;
  fee: number;
  status: EsploraUtxo['status'];
}
