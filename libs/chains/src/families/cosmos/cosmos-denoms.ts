import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { bech32 } from '@scure/base';
import type { ChainDescriptor } from '../../chain-descriptor';
import type { ListedToken } from '../family-traits';

/**
 * ICS-20's voucher denom of a trace path: `ibc/` and the uppercase hex SHA-256 of the full path
 * (`transfer/channel-0/uatom` → `ibc/27394F…` on Osmosis mainnet).
 */
export function ibcVoucherDenom(path: string): string {
  return `ibc/${bytesToHex(sha256(new TextEncoder().encode(path))).toUpperCase()}`;
}

/**
 * ICS-20's escrow account of a channel (`GetEscrowAddress`): the first 20 bytes of
 * SHA-256(`ics20-1` 0x00 `transfer/<channel>`), where a chain's own coins wait while their vouchers
 * are abroad.
 */
export function ics20EscrowAddress(prefix: string, channel: string, port = 'transfer'): string {
  const preimage = new TextEncoder().encode(`ics20-1\0${port}/${channel}`);
  return bech32.encode(prefix, bech32.toWords(sha256(preimage).subarray(0, 20)));
}

/** A token of a Cosmos chain as the catalog lists it: its symbol, denom and decimals. */
export interface CosmosListedToken {
  symbol: string;
  name: string;
  denom: string;
  decimals: number;
}

/**
 * The tokens a Cosmos chain lists: its native coin, and the vouchers of its IBC counterparties'
 * native coins, one hop over its own channel toward each (`ibc/…` of `transfer/<channel>/<denom>`),
 * named by their symbol. On the devnet only a swap venue (a chain with a crosschain-swaps contract:
 * Osmosis) lists vouchers; a real network lists those of every shipped counterparty (USDC from
 * Noble on the Hub and Osmosis: ibc/F663521B…, ibc/498A0751…), since wallets hold them.
 */
export function cosmosListedTokens(
  chain: ChainDescriptor,
  counterpartyOf: (chainId: string) => ChainDescriptor | undefined,
): CosmosListedToken[] {
  const traits = chain.cosmos;
  if (!traits) return [];
  const tokens: CosmosListedToken[] = [
    {
      symbol: chain.nativeSymbol,
      name: chain.nativeSymbol,
      denom: traits.nativeDenom,
      decimals: chain.nativeDecimals,
    },
  ];
  if (chain.devnet && !traits.crosschainSwapsContract) return tokens;
  for (const [counterpartyId, channel] of Object.entries(traits.ibcChannels)) {
    const counterparty = counterpartyOf(counterpartyId);
    if (!counterparty?.cosmos) continue;
    tokens.push({
      symbol: counterparty.nativeSymbol,
      name: `${counterparty.nativeSymbol} (IBC from ${counterparty.name})`,
      denom: ibcVoucherDenom(`transfer/${channel}/${counterparty.cosmos.nativeDenom}`),
      decimals: counterparty.nativeDecimals,
    });
  }
  return tokens;
}

/**
 * cosmosListedTokens as the catalog lists them: the native coin first, then the vouchers in their
 * order, each bridged to every chain the chain has an IBC channel to, its denom in `mint`.
 */
export function cosmosTokenListing(
  chain: ChainDescriptor,
  counterpartyOf: (chainId: string) => ChainDescriptor | undefined,
): ListedToken[] {
  return cosmosListedTokens(chain, counterpartyOf).map((token, index) => ({
    chain: chain.id,
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    address: null,
    mint: token.denom,
    listIndex: index === 0 ? null : index,
    bridgedChains: Object.keys(chain.cosmos?.ibcChannels ?? {}).length,
  }));
}
