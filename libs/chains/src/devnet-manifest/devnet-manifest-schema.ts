/**
 * The devnet manifest's schema, one for its writer (libs/devnet) and its readers (services, tests):
 * the view every manifest satisfies, and the complete manifest `startDevnet` writes as its refinement.
 * devnet-manifest-validation.ts checks both.
 */

/**
 * What services may rely on in any devnet manifest: the one `startDevnet` writes (DevnetManifest),
 * the mainnet replica's (MainnetReplicaManifest: no devnet chains) and ones written before a section
 * existed. Declared in libs/chains so that services do not load the devnet tooling (anvil, solc).
 */
export interface DevnetManifestView {
  generatedAtMs: number;
  /** Devnet EVM chains; empty in a manifest that brings no devnet chains (the mainnet replica's). */
  chains: DevnetChainView[];
  /** The devnet bridge between the chains; absent exactly when there are no devnet chains. */
  bridge?: { provider: string; feeBps: number; estimatedDurationSeconds: number; relayer: string };
  accounts: { index: number; address: string }[];
  /** The local Solana chain (`solana-devnet`); absent in manifests written before it existed. */
  solana?: DevnetSolanaView;
  /** The local Bitcoin chain (`bitcoin-devnet`); absent in manifests written before it existed. */
  bitcoin?: DevnetBitcoinView;
  /**
   * The local Cosmos SDK chains (family `cosmos`); absent in manifests written before they existed.
   * No service serves the family yet: readers validate the section and otherwise ignore it.
   */
  cosmos?: CosmosDevnetChainManifest[];
}

/** One local Cosmos SDK chain of the manifest's `cosmos` section (startCosmosDevnet). */
export interface CosmosDevnetChainManifest {
  /** API identifier, e.g. `cosmoshub-devnet`. */
  id: string;
  name: string;
  family: 'cosmos';
  /** The chain id transactions are signed for (the same string as `id`). */
  chainId: string;
  /** CometBFT RPC (JSON-RPC over POST and the URI form), no trailing slash: cosmjs's endpoint. */
  rpc: string;
  /** The SDK's REST API (gRPC-gateway), no trailing slash. */
  rest: string;
  bech32Prefix: string;
  /** Base denom of the native token, e.g. `uatom`. */
  nativeDenom: string;
  nativeSymbol: string;
  decimals: number;
  /** The node's minimum gas price, as the SDK writes it (`0.005uatom`). */
  minGasPrice: string;
  blockMs: number;
  /** Test wallets: m/44'/118'/0'/0/<index> of the test mnemonic, 1,000 tokens each at start. */
  accounts: { index: number; address: string }[];
  /**
   * ICS-20 transfer channels (port `transfer`) of this chain: counterparty chain id → this chain's
   * channel id toward it, e.g. `{"osmosis-devnet": "channel-0"}`.
   */
  ibcChannels: Record<string, string>;
  /**
   * Osmosis only: the address of the crosschain-swaps contract an ibc-hooks `wasm` memo names for a
   * swap on arrival (`{"wasm":{"contract":<this>,"msg":{"osmosis_swap":{…}}}}`, the packet's receiver
   * the same address). On the devnet a stand-in for the CosmWasm contract, not the contract itself.
   */
  crosschainSwapsContract?: string;
  /**
   * Noble only: its end of the devnet bridge, shaped like Circle's CCTP there (a wallet burns its
   * USDC with circle.cctp.v1.MsgDepositForBurn; USDC bridged to Noble is minted to the recipient).
   */
  bridge?: CosmosDevnetBridge;
}

/** The devnet bridge's Cosmos end (Noble's CCTP). */
export interface CosmosDevnetBridge {
  /** The bridge's id of the chain (EVM `depositTo` destinationChainId): Noble's CCTP domain, 4. */
  chainId: number;
  /** Symbol of the bridged token (USDC). */
  token: string;
  /** Its denom, what MsgDepositForBurn's burn_token names (`uusdc`). */
  denom: string;
  /** Where its module account is (x/cctp's, the burns' spender as a route leg shows it). */
  moduleAddress: string;
  /** Upper bound, either direction, from the deposit to the release. */
  estimatedDurationSeconds: number;
}

/** The manifest's `bitcoin` section: the local Bitcoin chain, its Esplora API and its end of the bridge. */
export interface DevnetBitcoinView {
  /** API identifier, always `bitcoin-devnet`. */
  id: string;
  name: string;
  family: 'bitcoin';
  /** Address format: regtest (`bcrt1…`). */
  network: 'regtest';
  /** Esplora HTTP API of the chain, no trailing slash. */
  esploraUrl: string;
  nativeSymbol: string;
  decimals: number;
  blockMs: number;
  /** Test wallets: BIP84 m/84'/1'/0'/0/<index> of the test mnemonic, P2WPKH. */
  accounts: { index: number; address: string }[];
  /** The service's miner-fee wallets: m/84'/1'/1'/0/<index>. */
  feeWallets: { index: number; address: string }[];
  bridge: {
    /** The bridge's id for Bitcoin (EVM depositTo destinationChainId, Solana memo, release sourceChainId). */
    chainId: number;
    /** A deposit is a payment to the vault with an OP_RETURN memo. */
    vault: string;
    /** What the bridge pays for BTC on the other chains, and takes for BTC. */
    token: string;
    /** The devnet bridge's fixed price: whole USDC per BTC. */
    usdcPerBtc: number;
    feeBps: number;
    /** The miner fee each BTC payout bears, taken from what it pays (THORChain's outbound fee). */
    outboundFeeSats: number;
    estimatedDurationSeconds: number;
    /** The local THORNode over this end (THORNODE_URL) and the THORChain prefix of each EVM chain. */
    thornode?: { url: string; chains: Record<string, string> };
  };
}

/** The manifest's `solana` section: the local Solana chain and its end of the USDC bridge. */
export interface DevnetSolanaView {
  /** API identifier, always `solana-devnet`. */
  id: string;
  name: string;
  family: 'solana';
  rpcUrl: string;
  nativeSymbol: string;
  tokens: { USDC: { mint: string; decimals: number; name: string } };
  accounts: { index: number; address: string }[];
  slotMs: number;
  bridge: {
    /** The id the EVM bridge contracts use for this chain (`depositTo` destinationChainId, deposit memo). */
    chainId: number;
    /** Symbol of the bridged token (USDC). */
    token: string;
    /** USDC token account of the bridge: a Solana deposit is a transfer into it plus a memo. */
    vault: string;
    vaultOwner: string;
    /** Upper bound, either direction, from the deposit to the release. */
    estimatedDurationSeconds: number;
  };
}

export interface DevnetChainView {
  id: string;
  name: string;
  chainId: number;
  rpcUrl: string;
  nativeSymbol: string;
  tokens: Record<
    string,
    {
      address: string;
      decimals: number;
      name: string;
      permit?: boolean;
      permitVersion?: string;
      /** Known untaxed and unrestricted: quote-service skips its token-tax probe. */
      verified?: boolean;
    }
  >;
  uniswapV2: { factory: string; router: string; initCodeHash: string; pairs: Record<string, string> };
  bridge: { address: string; token: string };
  /**
   * Permit2 and the permit-aware SwapGatewayRouter (spender of both kinds of permit, in front of
   * `uniswapV2.router` and `bridge`); absent in manifests written before they were deployed.
   */
  permits?: { permit2: string; permitRouter: string };
}

/**
 * The devnet manifest: everything a service or a test needs to talk to the local chains. Written
 * by `startDevnet`, read by services through libs/chains (`DEVNET_MANIFEST`). It extends the view, so
 * the compiler checks that what the devnet writes is what readers expect.
 */
export interface DevnetManifest extends DevnetManifestView {
  generatedAtMs: number;
  /** The standard anvil test mnemonic; accounts derive at m/44'/60'/0'/0/<index>. */
  mnemonic: string;
  chains: DevnetChain[];
  bridge: DevnetBridgeInfo;
  /** Accounts 1-9: funded with ETH, WETH, USDC and DAI on every chain, for trying swaps. */
  accounts: DevnetAccount[];
  /**
   * The local Solana chain (`solana-devnet`), beside `chains` so EVM readers are unchanged. Its test
   * wallets are Keypair.fromSeed(sha256("swapgw-devnet/solana/wallet/<index>")).
   */
  solana: DevnetSolanaChain;
  /**
   * The local Bitcoin chain (`bitcoin-devnet`, regtest) behind an Esplora API. Its wallets are BIP84
   * keys of the mnemonic: test wallets m/84'/1'/0'/0/<index>, fee wallets m/84'/1'/1'/0/<index>, the
   * bridge vault m/84'/1'/2'/0/0 (libs/devnet/src/bitcoin/bitcoin-keys.ts).
   */
  bitcoin: DevnetBitcoinChain;
  /** The local Cosmos SDK chains: cosmoshub-devnet, osmosis-devnet, noble-devnet (libs/devnet/src/cosmos). */
  cosmos: CosmosDevnetChainManifest[];
}

export interface DevnetBitcoinChain extends BitcoinDevnetManifest {
  bridge: BitcoinDevnetBridge & {
    /** Upper bound, either direction, from the deposit's broadcast to the release (see README). */
    estimatedDurationSeconds: number;
  };
}

/**
 * The manifest `startMainnetReplica` writes: no devnet chains (`chains` is empty, no `bridge`, no
 * top-level `solana`), so services reading it as a devnet manifest see none; they reach the
 * replica's chains as they reach mainnet, through RPC_URL_ETHEREUM / _BASE / _ARBITRUM / _SOLANA.
 */
export interface MainnetReplicaManifest {
  generatedAtMs: number;
  chains: [];
  /** Accounts 1-9 of the anvil test mnemonic: ETH, USDC and WETH on every EVM replica. */
  accounts: DevnetAccount[];
  mainnetReplica: MainnetReplicaChains;
}

export interface MainnetReplicaChains {
  evm: MainnetReplicaEvmChain[];
  solana: MainnetReplicaSolanaChain;
  /**
   * Across's API on the replica (`GET <acrossApiUrl>/suggested-fees`, as https://app.across.to/api),
   * quoting what the replica's filler fills: quote-service's ACROSS_API_URL.
   */
  acrossApiUrl: string;
  /**
   * The Cosmos mainnets (cosmoshub-4, osmosis-1, noble-1) under their real ids and channels, each
   * chain's CometBFT RPC under `rpc` and REST API under `rest`; absent in replicas written before them.
   */
  cosmos?: CosmosDevnetChainManifest[];
  /**
   * The replica's `bitcoin` chain (mainnet addresses) behind an Esplora API, and THORChain between
   * it and the EVM chains; absent in replica manifests written before it existed.
   */
  bitcoin?: MainnetReplicaBitcoinChain;
}

/**
 * The mainnet replica's Bitcoin chain: the devnet's in-process chain showing mainnet addresses
 * (`bc1q…`, `bc1p…`, `3…`), with THORChain's local THORNode and vaults (libs/devnet/src/replica/bitcoin-replica.ts).
 */
export interface MainnetReplicaBitcoinChain {
  /** API id of the real network it replicates: `bitcoin`. */
  id: 'bitcoin';
  network: 'mainnet';
  /** Its Esplora API (Blockstream's esplora API.md): the apps' ESPLORA_URL_BITCOIN. */
  esploraUrl: string;
  blockMs: number;
  /** Test wallets 1-9, BIP84 native SegWit `m/84'/0'/0'/0/<index>` of the test mnemonic (`bc1q…`), 5 BTC each. */
  accounts: DevnetAccount[];
  /** The same indices' BIP86 Taproot wallets `m/86'/0'/0'/0/<index>` (`bc1p…`), 5 BTC each. */
  taprootAccounts: DevnetAccount[];
  /** The same indices' BIP49 nested SegWit wallets `m/49'/0'/0'/0/<index>` (`3…`), 5 BTC each. */
  nestedSegwitAccounts: DevnetAccount[];
  /** signer-surface's miner-fee wallets `m/84'/0'/1'/0/<index>` (its BITCOIN_FEE_WALLET_KEYS for `bitcoin`). */
  feeWallets: DevnetAccount[];
  /** THORChain on the replica: its THORNode API (the apps' THORNODE_URL), its vaults and router. */
  thorchain: {
    thornodeUrl: string;
    /** THORChain's BTC inbound address (`m/84'/0'/2'/0/0`). */
    bitcoinVault: string;
    /** The router on every EVM replica chain, as inbound_addresses lists it. */
    router: string;
    /** THORChain's vault on every EVM replica chain (test account 16). */
    evmVault: string;
  };
}

/** An anvil chain with a real network's chain id and its contracts at their canonical addresses. */
export interface MainnetReplicaEvmChain {
  /** API id of the real network it replicates (`ethereum`, `base`, `arbitrum`). */
  id: string;
  chainId: number;
  rpcUrl: string;
}

export interface MainnetReplicaSolanaChain {
  id: 'solana';
  rpcUrl: string;
  /** Test wallets 1-9, Keypair.fromSeed(sha256("swapgw-devnet/solana/wallet/<index>")), as on the devnet. */
  accounts: DevnetAccount[];
}

export interface DevnetSolanaChain extends SolanaDevnetManifest {
  bridge: SolanaDevnetBridge & {
    /** Upper bound, either direction, from the deposit's receipt to the release (see README). */
    estimatedDurationSeconds: number;
  };
}

export type DevnetChainId = 'devnet-a' | 'devnet-b';
export type DevnetTokenSymbol = 'USDC' | 'DAI' | 'WETH' | 'TAX';
export type DevnetPairName = 'WETH/USDC' | 'WETH/DAI' | 'USDC/DAI' | 'TAX/USDC';

export interface DevnetChain extends DevnetChainView {
  /** API chain identifier, e.g. `devnet-a`. */
  id: string;
  name: string;
  /** EVM chain id, e.g. 31337. */
  chainId: number;
  rpcUrl: string;
  nativeSymbol: string;
  tokens: Record<string, DevnetToken>;
  uniswapV2: DevnetUniswapV2;
  bridge: DevnetChainBridge;
  permits: DevnetChainPermits;
}

/**
 * Contracts that take a permit instead of an approval: the swap or bridge deposit carries the
 * user's signature, so the first leg is one transaction.
 */
export interface DevnetChainPermits {
  /** Permit2 (SignatureTransfer; signature-compatible with Uniswap's). Owners approve it once per token. */
  permit2: string;
  /**
   * SwapGatewayRouter: pulls the input with an EIP-2612 permit or a Permit2 transfer and performs
   * the leg (`uniswapV2.router` swap or `bridge` deposit). The spender of both kinds of permit.
   */
  permitRouter: string;
}

export interface DevnetToken {
  address: string;
  decimals: number;
  name: string;
  /** Whether the token implements EIP-2612 `permit`. */
  permit: boolean;
  /** EIP-712 domain version of the permit (present when `permit` is true). */
  permitVersion?: string;
  /**
   * Known to move without a tax or restriction (USDC, DAI, WETH): quote-service skips its tax
   * check. Absent (TAX): every quote's route is checked on chain (quote-service's token-tax probe).
   */
  verified?: boolean;
}

export interface DevnetUniswapV2 {
  factory: string;
  router: string;
  /** keccak256 of the pair creation code, as hard-coded in the router's library. */
  initCodeHash: string;
  /** Pair contract addresses keyed `A/B` (the order is the manifest's, not the pair's token0/1). */
  pairs: Record<string, string>;
}

export interface DevnetChainBridge {
  address: string;
  /** Symbol of the bridged token (USDC). */
  token: string;
}

export interface DevnetBridgeInfo {
  provider: string;
  /** Fee kept by the bridge on deposit, in basis points of the deposited amount. */
  feeBps: number;
  /** Upper bound, measured, from the deposit receipt to the release on the destination. */
  estimatedDurationSeconds: number;
  /** The only address allowed to call `release`. */
  relayer: string;
}

export interface DevnetAccount {
  index: number;
  address: string;
}

/** The `solana` section as the local Solana chain describes itself (startSolanaDevnet). */
export interface SolanaDevnetManifest {
  id: 'solana-devnet';
  name: string;
  family: 'solana';
  rpcUrl: string;
  nativeSymbol: 'SOL';
  tokens: { USDC: { mint: string; decimals: number; name: string } };
  /** Holds the USDC mint authority: the bridge relayer mints on Solana with it. */
  bridgeAuthority: string;
  /** Test wallets 1..9: Keypair.fromSeed(sha256(`swapgw-devnet/solana/wallet/${index}`)). */
  accounts: { index: number; address: string }[];
  /** Wall-clock length of a slot; a transaction is `confirmed` one slot after it executed. */
  slotMs: number;
  bridge: SolanaDevnetBridge;
}

/** Lock-and-release USDC bridge on Solana: deposits lock in the vault, releases pay from it. */
export interface SolanaDevnetBridge {
  /** The id EVM `depositTo`/`release` use for this chain (SOLANA_BRIDGE_CHAIN_ID). */
  chainId: number;
  /** Symbol of the bridged token (USDC). */
  token: string;
  /** The vault: the bridge authority's USDC associated token account. Deposits transfer here. */
  vault: string;
  /** Owner of the vault, signer of every release (the same key as `bridgeAuthority`). */
  vaultOwner: string;
}

/** The `bitcoin` section as the local Bitcoin chain describes itself (startBitcoinDevnet). */
export interface BitcoinDevnetManifest {
  id: 'bitcoin-devnet';
  name: 'Bitcoin Devnet';
  family: 'bitcoin';
  network: 'regtest';
  /** Esplora HTTP API, no trailing slash. */
  esploraUrl: string;
  nativeSymbol: 'BTC';
  decimals: 8;
  blockMs: number;
  /** Test wallets: m/84'/1'/0'/0/<index>, P2WPKH, 5 BTC each in 1 BTC coins. */
  accounts: { index: number; address: string }[];
  /** The service's miner-fee wallets: m/84'/1'/1'/0/<index>, 1 BTC each in 25 coins. */
  feeWallets: { index: number; address: string }[];
  bridge: BitcoinDevnetBridge;
}

/** The bridge's Bitcoin end: BTC paid to the vault with a memo, USDC paid out at a fixed price. */
export interface BitcoinDevnetBridge {
  /** BITCOIN_BRIDGE_CHAIN_ID. */
  chainId: number;
  /** m/84'/1'/2'/0/0, 50 BTC in 5 BTC coins. */
  vault: string;
  token: 'USDC';
  usdcPerBtc: number;
  feeBps: number;
  /** The miner fee each BTC payout of the bridge bears (BitcoinBridgeTerms.outboundFeeSats). */
  outboundFeeSats: number;
  /**
   * The local THORNode serving THORChain's API over this end (quote-service's THORNODE_URL), and
   * the THORChain chain prefix it gives each devnet EVM chain (`{"devnet-a": "ETH", …}`).
   */
  thornode?: { url: string; chains: Record<string, string> };
}
