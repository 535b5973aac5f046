import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection, PublicKey } from '@solana/web3.js';
import { getAssociatedTokenAddressSync, getMint } from '@solana/spl-token';
import { PERMIT2_ADDRESS, SignatureTransfer } from '@uniswap/permit2-sdk';
import {
  AbiCoder,
  Contract,
  getCreate2Address,
  hexlify,
  Interface,
  JsonRpcProvider,
  keccak256,
  parseEther,
  parseUnits,
  randomBytes,
  Signature,
  solidityPacked,
  solidityPackedKeccak256,
  Wallet,
  ZeroAddress,
} from 'ethers';
import {
  ChainDeployments,
  ChainRegistry,
  eip2612PermitTypedData,
  encodeSponsoredCall,
  ethersTypedDataArgs,
  PERMIT2_WITNESS_TYPE_STRINGS,
  randomPermit2Nonce,
  REAL_NETWORK_CATALOG,
  REAL_NETWORKS,
  sponsoredRouterInterface,
  swapV3IntentTypedData,
  TypedDataV4,
} from '@swapgw/chains';
import { loadEvmArtifacts, swapGatewayRouterAddress, verifySwapGatewayRouter } from '@swapgw/evm-contracts';
import { freePort } from '@swapgw/testing';
import { PERMIT2_ABI as PERMIT2_ERRORS_ABI, SWAP_GATEWAY_ROUTER_ABI } from '../contracts/abis';
import { devnetWallet } from '../accounts';
import { DEVNET_MNEMONIC } from '../anvil';
import { EIP2612_PERMIT_TYPES } from '../contracts/permit-typed-data';
import { localProvider } from '../evm-provider';
import { GasHeadroomSigner } from '../gas-headroom';
import { MainnetReplicaEvmChain } from '../manifest';
import { solanaTestWallet } from '../solana/solana-keys';
import { RunningMainnetReplica, startMainnetReplica } from './start-mainnet-replica';

// What a wallet meets on the replica, read through RPC as it would read mainnet: the real chain
// ids, code at the catalog's addresses, pools where the init code hashes put them, quotes at the
// seeded price, a swap through SwapRouter02, both kinds of permit, our SwapGatewayRouter deployed as
// on mainnet and a gas-covered V3 swap through it, and USDC on Solana.
const ERC20_ABI = [
  'function balanceOf(address) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
  'function name() view returns (string)',
  'function nonces(address owner) view returns (uint256)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
];
/** Gas of a relayed call in these tests (the service adds a margin to its estimates; so do they). */
const RELAYED_GAS_LIMIT = 2_000_000;
const QUOTER_V2_ABI = [
  'function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)',
];
const SWAP_ROUTER_02_ABI = [
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
];
const PERMIT2_ABI = [
  'function permitTransferFrom(((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, (address to, uint256 requestedAmount) transferDetails, address owner, bytes signature)',
];
const SPOKE_POOL_ABI = [
  'function wrappedNativeToken() view returns (address)',
  'function chainId() view returns (uint256)',
  'function depositQuoteTimeBuffer() view returns (uint32)',
  'function fillDeadlineBuffer() view returns (uint32)',
  'function pausedDeposits() view returns (bool)',
  'function pausedFills() view returns (bool)',
  'function withdrawalRecipient() view returns (address)',
  'function proxiableUUID() view returns (bytes32)',
];
const ERC1967_IMPLEMENTATION_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const V2_FACTORY_ABI = ['function getPair(address, address) view returns (address)'];
const V3_FACTORY_ABI = ['function getPool(address, address, uint24) view returns (address)'];

const REPLICATED = { ethereum: 1, base: 8453, arbitrum: 42161 } as const;

describe('mainnet replica', () => {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'swapgw-replica-'));
  const manifestPath = path.join(workDir, 'manifest.json');
  let replica: RunningMainnetReplica;
  const providers: JsonRpcProvider[] = [];

  const chainOf = (id: keyof typeof REPLICATED): MainnetReplicaEvmChain => {
    const chain = replica.manifest.mainnetReplica.evm.find((c) => c.id === id);
    if (!chain) throw new Error(`${id} is not in the manifest`);
    return chain;
  };
  const providerOf = (id: keyof typeof REPLICATED) => {
    const chain = chainOf(id);
    const provider = localProvider(chain.rpcUrl, chain.chainId);
    providers.push(provider);
    return provider;
  };
  const catalogOf = (id: string): ChainDeployments => {
    const entry = REAL_NETWORK_CATALOG.find((c) => c.chain === id);
    if (!entry) throw new Error(`no catalog entry ${id}`);
    return entry;
  };
  const usdcOf = (id: string) => catalogOf(id).tokens.find((t) => t.symbol === 'USDC')!.address;
  const wethOf = (id: string) => catalogOf(id).wrappedNative!;
  const inAnHour = () => BigInt(Math.floor(Date.now() / 1000) + 3600);

  // The replica's start (every chain, Cosmos included) as the other replica suites bound it: a
  // loaded CI machine took over 60 s.
  beforeAll(async () => {
    replica = await startMainnetReplica({
      manifestPath,
      portEthereum: await freePort(),
      portBase: await freePort(),
      portArbitrum: await freePort(),
    });
  }, 120_000);

  afterAll(async () => {
    providers.forEach((p) => p.destroy());
    await replica?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('writes a manifest with no devnet chains and the replica under mainnetReplica', () => {
    const written = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(written).sort()).toEqual(['accounts', 'chains', 'generatedAtMs', 'mainnetReplica']);
    expect(written.chains).toEqual([]);
    expect(replica.manifest.mainnetReplica.evm.map((c) => [c.id, c.chainId])).toEqual([
      ['ethereum', 1],
      ['base', 8453],
      ['arbitrum', 42161],
    ]);
    expect(replica.manifest.mainnetReplica.solana.id).toBe('solana');
    expect(replica.manifest.accounts.map((a) => a.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("runs the Cosmos mainnets under their chain ids and chain-registry's channels, Osmosis's pools priced in the mainnet vouchers", async () => {
    const cosmos = replica.manifest.mainnetReplica.cosmos ?? [];
    expect(cosmos.map((c) => [c.id, c.chainId, c.bech32Prefix, c.nativeDenom, c.ibcChannels])).toEqual([
      [
        'cosmoshub-4',
        'cosmoshub-4',
        'cosmos',
        'uatom',
        { 'osmosis-1': 'channel-141', 'noble-1': 'channel-536' },
      ],
      ['osmosis-1', 'osmosis-1', 'osmo', 'uosmo', { 'cosmoshub-4': 'channel-0', 'noble-1': 'channel-750' }],
      ['noble-1', 'noble-1', 'noble', 'uusdc', { 'cosmoshub-4': 'channel-4', 'osmosis-1': 'channel-1' }],
    ]);
    const osmosis = cosmos.find((c) => c.id === 'osmosis-1')!;
    expect(osmosis.crosschainSwapsContract).toBe(
      REAL_NETWORKS.find((n) => n.id === 'osmosis-1')?.cosmos?.crosschainSwapsContract,
    );
    // What a wallet and a client read: CometBFT's /status names the chain id, Osmosis's poolmanager its pools.
    const status = (await (await fetch(`${osmosis.rpc}/status`)).json()) as {
      result: { node_info: { network: string } };
    };
    expect(status.result.node_info.network).toBe('osmosis-1');
    const pools = (await (await fetch(`${osmosis.rest}/osmosis/poolmanager/v1beta1/all-pools`)).json()) as {
      pools: { pool_assets: { token: { denom: string } }[] }[];
    };
    const atom = 'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2';
    const usdc = 'ibc/498A0751C798A0D9A389AA3691123DADA57DAA4FE165D5C75894505B876BA6E4';
    expect(pools.pools.map((p) => p.pool_assets.map((a) => a.token.denom))).toEqual([
      [atom, 'uosmo'],
      [atom, usdc],
      ['uosmo', usdc],
    ]);
  });

  it.each(Object.entries(REPLICATED))('%s answers with chain id %d', async (id, chainId) => {
    const response = await fetch(chainOf(id as keyof typeof REPLICATED).rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    expect(Number(((await response.json()) as { result: string }).result)).toBe(chainId);
  });

  it.each(Object.keys(REPLICATED))('%s has code at every catalog address', async (id) => {
    const provider = providerOf(id as keyof typeof REPLICATED);
    const catalog = catalogOf(id);
    const addresses = {
      ...Object.fromEntries(catalog.tokens.map((t) => [t.symbol, t.address])),
      permit2: catalog.permit2,
      'uniswapV2.factory': catalog.uniswapV2?.factory,
      'uniswapV2.router': catalog.uniswapV2?.router,
      'uniswapV3.factory': catalog.uniswapV3?.factory,
      'uniswapV3.quoterV2': catalog.uniswapV3?.quoterV2,
      'uniswapV3.swapRouter02': catalog.uniswapV3?.swapRouter02,
      'across.spokePool': catalog.across?.spokePool,
      gatewayRouter: catalog.gatewayRouter,
    };
    const withoutCode: string[] = [];
    for (const [name, address] of Object.entries(addresses)) {
      if (!address || (await provider.getCode(address)) === '0x') withoutCode.push(`${name} ${address}`);
    }
    expect(withoutCode).toEqual([]);
  });

  it.each(Object.keys(REPLICATED))(
    '%s has the compiled SwapGatewayRouter at the catalog address, deployed through the CREATE2 proxy',
    async (id) => {
      const provider = providerOf(id as keyof typeof REPLICATED);
      const catalog = catalogOf(id);
      const artifacts = loadEvmArtifacts();
      expect(catalog.gatewayRouter).toBe(swapGatewayRouterAddress(artifacts, catalog.permit2));
      // The runtime code at the address is the compiled router's, with the catalog's Permit2 in it.
      await expect(verifySwapGatewayRouter(provider, artifacts, catalog.permit2)).resolves.toBeUndefined();
      const router = new Contract(catalog.gatewayRouter!, SWAP_GATEWAY_ROUTER_ABI, provider);
      expect(await router.permit2()).toBe(catalog.permit2);
      expect(await router.SWAP_V3_INTENT_WITNESS_TYPE()).toBe(PERMIT2_WITNESS_TYPE_STRINGS.SwapV3Intent);
    },
  );

  it.each(Object.keys(REPLICATED))(
    "%s's SpokePool is an ERC1967 proxy of Across's implementation, initialized, deposits open",
    async (id) => {
      const provider = providerOf(id as keyof typeof REPLICATED);
      const catalog = catalogOf(id);
      const spokePool = new Contract(catalog.across!.spokePool, SPOKE_POOL_ABI, provider);
      const slot = await provider.getStorage(catalog.across!.spokePool, ERC1967_IMPLEMENTATION_SLOT);
      const implementation = `0x${slot.slice(-40)}`;
      expect(await provider.getCode(implementation)).not.toBe('0x');
      // UUPS: the implementation answers proxiableUUID with the slot it lives in, the proxy refuses.
      const asImplementation = new Contract(implementation, SPOKE_POOL_ABI, provider);
      expect(await asImplementation.proxiableUUID()).toBe(ERC1967_IMPLEMENTATION_SLOT);
      expect(await spokePool.wrappedNativeToken()).toBe(catalog.wrappedNative);
      expect(await spokePool.chainId()).toBe(BigInt(REPLICATED[id as keyof typeof REPLICATED]));
      expect(await spokePool.depositQuoteTimeBuffer()).toBe(3600n);
      expect(await spokePool.fillDeadlineBuffer()).toBe(21600n);
      expect(await spokePool.pausedDeposits()).toBe(false);
      expect(await spokePool.pausedFills()).toBe(false);
      expect(await spokePool.withdrawalRecipient()).toBe('0xc186fA914353c44b2E33eBE05f21846F1048bEda');
    },
  );

  it.each(Object.keys(REPLICATED))(
    '%s has the V2 pair and the V3 pools where CREATE2 with the catalog hashes puts them',
    async (id) => {
      const provider = providerOf(id as keyof typeof REPLICATED);
      const catalog = catalogOf(id);
      const [token0, token1] =
        BigInt(usdcOf(id)) < BigInt(wethOf(id)) ? [usdcOf(id), wethOf(id)] : [wethOf(id), usdcOf(id)];
      const v2Factory = new Contract(catalog.uniswapV2!.factory, V2_FACTORY_ABI, provider);
      const expectedPair = getCreate2Address(
        catalog.uniswapV2!.factory,
        solidityPackedKeccak256(['address', 'address'], [token0, token1]),
        catalog.uniswapV2!.initCodeHash,
      );
      expect(await v2Factory.getPair(usdcOf(id), wethOf(id))).toBe(expectedPair);
      expect(await provider.getCode(expectedPair)).not.toBe('0x');

      const v3Factory = new Contract(catalog.uniswapV3!.factory, V3_FACTORY_ABI, provider);
      for (const fee of [500, 3000]) {
        const expectedPool = getCreate2Address(
          catalog.uniswapV3!.factory,
          keccak256(
            AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [token0, token1, fee]),
          ),
          catalog.uniswapV3!.poolInitCodeHash,
        );
        expect(await v3Factory.getPool(usdcOf(id), wethOf(id), fee)).toBe(expectedPool);
        expect(await provider.getCode(expectedPool)).not.toBe('0x');
      }
    },
  );

  it.each(Object.keys(REPLICATED))(
    'QuoterV2 on %s quotes 1 WETH at about 3000 USDC less the pool fee',
    async (id) => {
      const quoter = new Contract(
        catalogOf(id).uniswapV3!.quoterV2,
        QUOTER_V2_ABI,
        providerOf(id as keyof typeof REPLICATED),
      );
      for (const fee of [500, 3000]) {
        const [amountOut] = (await quoter.quoteExactInputSingle.staticCall({
          tokenIn: wethOf(id),
          tokenOut: usdcOf(id),
          amountIn: parseEther('1'),
          fee,
          sqrtPriceLimitX96: 0,
        })) as [bigint];
        const afterFee = (parseUnits('3000', 6) * BigInt(1_000_000 - fee)) / 1_000_000n;
        // Deep pools: a 1 WETH swap moves the price by less than 0.05%.
        expect(amountOut).toBeLessThanOrEqual(afterFee);
        expect(amountOut).toBeGreaterThan((afterFee * 9995n) / 10_000n);
      }
    },
  );

  it('test accounts hold ETH, USDC and WETH, and the sponsorship relayers ETH, on every EVM replica', async () => {
    for (const id of Object.keys(REPLICATED) as (keyof typeof REPLICATED)[]) {
      const provider = providerOf(id);
      const usdc = new Contract(usdcOf(id), ERC20_ABI, provider);
      const weth = new Contract(wethOf(id), ERC20_ABI, provider);
      for (const { address } of replica.manifest.accounts) {
        expect(await provider.getBalance(address)).toBeGreaterThan(parseEther('1000'));
        expect(await usdc.balanceOf(address)).toBe(parseUnits('1000000', 6));
        expect(await weth.balanceOf(address)).toBe(parseEther('100'));
      }
      for (const index of [12, 13, 14, 15])
        expect(await provider.getBalance(devnetWallet(DEVNET_MNEMONIC, index).address)).toBeGreaterThan(
          parseEther('1000'),
        );
      expect([await usdc.symbol(), await usdc.name(), await usdc.decimals()]).toEqual([
        'USDC',
        'USD Coin',
        6n,
      ]);
    }
  });

  it('a wallet swaps USDC for WETH through SwapRouter02 exactInputSingle on base', async () => {
    const provider = providerOf('base');
    const wallet = devnetWallet(DEVNET_MNEMONIC, 1, provider);
    const swapRouter02 = catalogOf('base').uniswapV3!.swapRouter02;
    const usdc = new Contract(usdcOf('base'), ERC20_ABI, wallet);
    const weth = new Contract(wethOf('base'), ERC20_ABI, wallet);
    const quoter = new Contract(catalogOf('base').uniswapV3!.quoterV2, QUOTER_V2_ABI, provider);
    const amountIn = parseUnits('3000', 6);
    const params = {
      tokenIn: usdcOf('base'),
      tokenOut: wethOf('base'),
      fee: 500,
      amountIn,
      sqrtPriceLimitX96: 0,
    };
    const [quoted] = (await quoter.quoteExactInputSingle.staticCall(params)) as [bigint];
    const before = { usdc: await usdc.balanceOf(wallet.address), weth: await weth.balanceOf(wallet.address) };

    await (await usdc.approve(swapRouter02, amountIn)).wait();
    const router = new Contract(swapRouter02, SWAP_ROUTER_02_ABI, wallet);
    // Gas with room: a V3 swap writes the pool's oracle only in a later second than its last
    // observation, so an estimate can come out short.
    const swap = await router.exactInputSingle(
      { ...params, recipient: wallet.address, amountOutMinimum: quoted },
      { gasLimit: 500_000 },
    );
    const receipt = await swap.wait();

    expect(receipt?.status).toBe(1);
    expect(await usdc.balanceOf(wallet.address)).toBe(before.usdc - amountIn);
    expect(await weth.balanceOf(wallet.address)).toBe(before.weth + quoted);
    // 3000 USDC buy about 1 WETH less the 0.05% fee.
    expect(quoted).toBeGreaterThan(parseEther('0.999'));
    expect(quoted).toBeLessThan(parseEther('1'));
  });

  it('USDC on base accepts an EIP-2612 permit signed for {USD Coin, version 2, 8453, canonical address}', async () => {
    const provider = providerOf('base');
    const owner = devnetWallet(DEVNET_MNEMONIC, 2, provider);
    const spender = devnetWallet(DEVNET_MNEMONIC, 3, provider);
    const usdc = new Contract(usdcOf('base'), ERC20_ABI, spender);
    const value = parseUnits('250', 6);
    const deadline = inAnHour();
    const sign = async (version: string) =>
      Signature.from(
        await owner.signTypedData(
          { name: 'USD Coin', version, chainId: 8453, verifyingContract: usdcOf('base') },
          EIP2612_PERMIT_TYPES,
          {
            owner: owner.address,
            spender: spender.address,
            value,
            nonce: await usdc.nonces(owner.address),
            deadline,
          },
        ),
      );

    // Signed for OpenZeppelin's default version "1": not USDC's domain, refused.
    const wrong = await sign('1');
    await expect(
      usdc.permit.staticCall(owner.address, spender.address, value, deadline, wrong.v, wrong.r, wrong.s),
    ).rejects.toThrow();

    const right = await sign('2');
    await (
      await usdc.permit(owner.address, spender.address, value, deadline, right.v, right.r, right.s)
    ).wait();
    expect(await usdc.allowance(owner.address, spender.address)).toBe(value);
    expect(await usdc.nonces(owner.address)).toBe(1n);
  });

  it('Permit2 at the canonical address on base accepts a SignatureTransfer built with @uniswap/permit2-sdk', async () => {
    expect(PERMIT2_ADDRESS).toBe(catalogOf('base').permit2);
    const provider = providerOf('base');
    const owner = devnetWallet(DEVNET_MNEMONIC, 4, provider);
    const spender = devnetWallet(DEVNET_MNEMONIC, 5, provider);
    const usdc = new Contract(usdcOf('base'), ERC20_ABI, owner);
    // As on mainnet: the owner approves Permit2 once per token, then signs transfers.
    await (await usdc.approve(PERMIT2_ADDRESS, 2n ** 256n - 1n)).wait();

    const amount = parseUnits('125', 6);
    const permit = {
      permitted: { token: usdcOf('base'), amount: amount.toString() },
      spender: spender.address,
      nonce: '7',
      deadline: inAnHour().toString(),
    };
    const { domain, types, values } = SignatureTransfer.getPermitData(permit, PERMIT2_ADDRESS, 8453);
    const signature = await owner.signTypedData(
      domain as Record<string, string | number>,
      types,
      values as unknown as Record<string, unknown>,
    );
    const before = {
      owner: await usdc.balanceOf(owner.address),
      spender: await usdc.balanceOf(spender.address),
    };

    const permit2 = new Contract(PERMIT2_ADDRESS, PERMIT2_ABI, spender);
    const receipt = await (
      await permit2.permitTransferFrom(
        { permitted: permit.permitted, nonce: permit.nonce, deadline: permit.deadline },
        { to: spender.address, requestedAmount: amount },
        owner.address,
        signature,
      )
    ).wait();

    expect(receipt?.status).toBe(1);
    expect(await usdc.balanceOf(owner.address)).toBe(before.owner - amount);
    expect(await usdc.balanceOf(spender.address)).toBe(before.spender + amount);
    // The same signature again: the nonce is spent.
    await expect(
      permit2.permitTransferFrom.staticCall(
        { permitted: permit.permitted, nonce: permit.nonce, deadline: permit.deadline },
        { to: spender.address, requestedAmount: amount },
        owner.address,
        signature,
      ),
    ).rejects.toThrow();
  });

  it('a wallet with USDC and no ETH swaps it for WETH through Uniswap V3 on base, the relayer paying the gas; a relayer that changes the venue is refused', async () => {
    const provider = providerOf('base');
    const registry = new ChainRegistry({ rpcUrls: { base: chainOf('base').rpcUrl } });
    const contracts = registry.permitContracts('base')!;
    expect(contracts).toMatchObject({
      permit2: catalogOf('base').permit2,
      permitRouter: catalogOf('base').gatewayRouter,
      uniswapV3SwapRouter02: catalogOf('base').uniswapV3!.swapRouter02,
    });
    const relayer = devnetWallet(DEVNET_MNEMONIC, 15, provider);
    const wallet = new Wallet(hexlify(randomBytes(32)), provider);
    // After the balance check above: account 6 is no other test's.
    const funder = devnetWallet(DEVNET_MNEMONIC, 6, provider);
    const amount = parseUnits('100', 6);
    await (await new Contract(usdcOf('base'), ERC20_ABI, funder).transfer(wallet.address, amount)).wait();
    const usdc = new Contract(usdcOf('base'), ERC20_ABI, provider);
    const weth = new Contract(wethOf('base'), ERC20_ABI, provider);
    expect(await provider.getBalance(wallet.address)).toBe(0n);
    const sign = (td: TypedDataV4) => {
      const { domain, types, value } = ethersTypedDataArgs(td);
      return wallet.signTypedData(domain, types, value);
    };
    const errors = new Interface(
      [...SWAP_GATEWAY_ROUTER_ABI, ...PERMIT2_ERRORS_ABI].filter((f) => f.startsWith('error ')),
    );
    const relay = async (call: { to: string; data: string }) => {
      // A fixed gas limit as the service's relayers add a margin: a V3 swap writes the pool's oracle only
      // in a later second than its last observation, so an estimate can come out short.
      const receipt = await (
        await relayer.sendTransaction({ to: call.to, data: call.data, gasLimit: RELAYED_GAS_LIMIT })
      ).wait();
      expect(receipt?.status).toBe(1);
    };

    // No allowance to Permit2 yet: the wallet signs USDC's EIP-2612 permit of Permit2 ("USD Coin", "2").
    expect(await usdc.allowance(wallet.address, contracts.permit2)).toBe(0n);
    const tokenPermit = registry.tokenPermitOf('base', usdcOf('base'))!;
    expect(tokenPermit).toEqual({ name: 'USD Coin', version: '2' });
    const permitTd = eip2612PermitTypedData({
      chainId: 8453,
      token: usdcOf('base'),
      tokenName: tokenPermit.name,
      version: tokenPermit.version,
      owner: wallet.address,
      spender: contracts.permit2,
      value: 2n ** 256n - 1n,
      nonce: (await usdc.nonces(wallet.address)) as bigint,
      deadline: inAnHour(),
    });
    await relay(encodeSponsoredCall(permitTd, wallet.address, await sign(permitTd)));
    expect(await usdc.allowance(wallet.address, contracts.permit2)).toBe(2n ** 256n - 1n);

    const quoter = new Contract(catalogOf('base').uniswapV3!.quoterV2, QUOTER_V2_ABI, provider);
    const [quoted] = (await quoter.quoteExactInputSingle.staticCall({
      tokenIn: usdcOf('base'),
      tokenOut: wethOf('base'),
      amountIn: amount,
      fee: 500,
      sqrtPriceLimitX96: 0,
    })) as [bigint];
    const intent = {
      venue: contracts.uniswapV3SwapRouter02!,
      path: [usdcOf('base'), wethOf('base')],
      fees: [500],
      amountOutMin: (quoted * 995n) / 1000n,
      recipient: wallet.address,
      unwrapNative: false,
      deadline: inAnHour(),
    };
    const permit = { token: usdcOf('base'), amount, nonce: randomPermit2Nonce(), deadline: inAnHour() };
    const td = swapV3IntentTypedData({
      chainId: 8453,
      permit2: contracts.permit2,
      router: contracts.permitRouter,
      ...permit,
      intent,
    });
    expect(td.domain).toEqual({
      name: 'Permit2',
      chainId: 8453,
      verifyingContract: catalogOf('base').permit2,
    });
    const signature = await sign(td);
    const call = encodeSponsoredCall(td, wallet.address, signature);
    expect(call.to).toBe(catalogOf('base').gatewayRouter);

    // The relayer sends it through Uniswap V2's Router02 instead: not what the wallet signed.
    const witness = td.message.witness as Record<string, unknown>;
    const otherVenue = sponsoredRouterInterface.encodeFunctionData('swapV3WithIntent', [
      { permitted: { token: permit.token, amount }, nonce: permit.nonce, deadline: permit.deadline },
      wallet.address,
      { ...witness, venue: catalogOf('base').uniswapV2!.router },
      signature,
    ]);
    const refused = await provider
      .call({ to: call.to, data: otherVenue, from: relayer.address })
      .catch((error: { data?: string }) => errors.parseError(error.data ?? '0x')?.name);
    expect(refused).toBe('InvalidSigner');

    await relay(call);
    expect(await usdc.balanceOf(wallet.address)).toBe(0n);
    expect((await weth.balanceOf(wallet.address)) as bigint).toBeGreaterThanOrEqual(intent.amountOutMin);
    expect(await provider.getBalance(wallet.address)).toBe(0n);
    expect(await usdc.balanceOf(call.to)).toBe(0n);
  });

  it('native ETH in with an integrator fee on base: swapV3WithFees sent with a value pays the fee in ETH and swaps the rest through SwapRouter02', async () => {
    const provider = providerOf('base');
    const router = catalogOf('base').gatewayRouter!;
    // Sent with headroom over its estimate, as wallets send: the V3 pool writes its oracle when the
    // swap lands in a later second than its last observation, which an exact estimate leaves no gas for.
    const wallet = new GasHeadroomSigner(new Wallet(hexlify(randomBytes(32)), provider));
    await provider.send('anvil_setBalance', [wallet.address, `0x${parseEther('2').toString(16)}`]);
    const feeRecipient = Wallet.createRandom().address;
    const gross = parseEther('0.5');
    const fee = parseEther('0.004');
    const path = solidityPacked(['address', 'uint24', 'address'], [wethOf('base'), 500, usdcOf('base')]);
    const swap = [catalogOf('base').uniswapV3!.swapRouter02, gross, 1n, wallet.address, false, inAnHour()];
    const contract = new Contract(router, SWAP_GATEWAY_ROUTER_ABI, wallet);
    const usdc = new Contract(usdcOf('base'), ERC20_ABI, provider);

    const receipt = await (
      await contract.swapV3WithFees(swap, path, [[feeRecipient, fee]], [2, 0n, 0n, '0x'], { value: gross })
    ).wait();
    expect(receipt?.status).toBe(1);
    expect(await provider.getBalance(feeRecipient)).toBe(fee);
    expect(await provider.getBalance(router)).toBe(0n);
    expect((await usdc.balanceOf(wallet.address)) as bigint).toBeGreaterThan(0n);
    const paid = receipt!.logs.flatMap((log: { topics: string[]; data: string }) => {
      const parsed = contract.interface.parseLog(log);
      return parsed?.name === 'IntegratorFeePaid' ? [parsed.args.toArray()] : [];
    });
    expect(paid).toEqual([[feeRecipient, ZeroAddress, wallet.address, fee]]);
  });

  it('the Solana replica has the USDC mint at its canonical address with 6 decimals, and test wallets hold USDC', async () => {
    const connection = new Connection(replica.manifest.mainnetReplica.solana.rpcUrl, 'confirmed');
    const mintAddress = new PublicKey(catalogOf('solana').tokens.find((t) => t.symbol === 'USDC')!.address);
    expect(mintAddress.toBase58()).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    const mint = await getMint(connection, mintAddress);
    expect(mint.decimals).toBe(6);
    expect(mint.isInitialized).toBe(true);

    const wallet = solanaTestWallet(1).publicKey;
    expect(replica.manifest.mainnetReplica.solana.accounts[0]).toEqual({
      index: 1,
      address: wallet.toBase58(),
    });
    const balance = await connection.getTokenAccountBalance(
      getAssociatedTokenAddressSync(mintAddress, wallet),
    );
    expect(balance.value.amount).toBe(parseUnits('1000000', 6).toString());
    expect(await connection.getBalance(wallet)).toBeGreaterThan(0);
  });
});
