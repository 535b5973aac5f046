import { IntegratorFeeShare, MAX_INTEGRATOR_FEE_BPS, MAX_INTEGRATOR_FEE_RECIPIENTS } from '@swapgw/contracts';
import { isEvmAddress, isSolanaAddress } from '../common/validation/address-formats';

/**
 * An API key's default integrator fee as the keys CLI takes it: `<bps>:<recipient>` shares separated
 * by commas (`50:0xabc...,25:7xKX...`). The recipients are EVM or Solana addresses (the fee is paid
 * on the source chain, and POST /quote keeps the shares whose recipient is an address of it, so one
 * default may name a recipient per family); at most MAX_INTEGRATOR_FEE_RECIPIENTS shares whose bps
 * add up to at most MAX_INTEGRATOR_FEE_BPS. Throws an Error saying what is wrong.
 */
export function parseIntegratorFeeDefault(text: string): IntegratorFeeShare[] {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0) throw new Error('the fee needs at least one <bps>:<recipient>');
  if (parts.length > MAX_INTEGRATOR_FEE_RECIPIENTS)
    throw new Error(`at most ${MAX_INTEGRATOR_FEE_RECIPIENTS} recipients`);
  const shares = parts.map((part) => {
    const match = /^([0-9]{1,3}):(\S+)$/.exec(part);
    if (!match) throw new Error(`"${part}" is not <bps>:<recipient>`);
    const bps = Number(match[1]);
    const recipient = match[2];
    if (bps > MAX_INTEGRATOR_FEE_BPS) throw new Error(`${bps} bps is over ${MAX_INTEGRATOR_FEE_BPS}`);
    if (!isEvmAddress(recipient) && !isSolanaAddress(recipient))
      throw new Error(`${recipient} is not an EVM or Solana address`);
    return { bps, recipient };
  });
  const total = shares.reduce((sum, share) => sum + share.bps, 0);
  if (total > MAX_INTEGRATOR_FEE_BPS)
    throw new Error(`the shares add up to ${total} bps; at most ${MAX_INTEGRATOR_FEE_BPS}`);
  return shares;
}

/** The default as `keys list` prints it: `50:0xabc...,25:7xKX...`, or `-` for none. */
export const formatIntegratorFeeDefault = (shares: IntegratorFeeShare[] | null): string =>
  shares && shares.length > 0 ? shares.map((share) => `${share.bps}:${share.recipient}`).join(',') : '-';
