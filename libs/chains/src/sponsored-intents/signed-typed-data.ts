import { TypedDataDomain, TypedDataEncoder, verifyTypedData } from 'ethers';
import type { TypedDataFieldV4, TypedDataV4 } from './intent-types';
import { SponsoredIntentError } from './intent-values';
import {
  eip2612Types,
  permit2WitnessTypes,
  SPONSORED_INTENT_TYPES,
  type SponsoredWitnessType,
} from './witness-types';

// What a signature over typed data is: who signed it, its digest, and which sponsored call it is
// (only typed data shaped exactly as the contracts verify it is one).

/** The arguments of ethers' `signer.signTypedData(domain, types, value)`: ethers derives EIP712Domain itself and refuses it in `types`. */
export function ethersTypedDataArgs(td: TypedDataV4): {
  domain: TypedDataDomain;
  types: Record<string, TypedDataFieldV4[]>;
  value: Record<string, unknown>;
} {
  const types = Object.fromEntries(Object.entries(td.types).filter(([name]) => name !== 'EIP712Domain'));
  return { domain: td.domain as TypedDataDomain, types, value: td.message };
}

/** The address whose key made `signature` over `td` (checksummed): check it is the owner before spending gas. */
export function recoverTypedDataSigner(td: TypedDataV4, signature: string): string {
  const { domain, types, value } = ethersTypedDataArgs(td);
  return verifyTypedData(domain, types, value, signature);
}

/** The EIP-712 digest of `td` (what the signature is over and the contract recomputes). */
export function typedDataDigest(td: TypedDataV4): string {
  const { domain, types, value } = ethersTypedDataArgs(td);
  return TypedDataEncoder.hash(domain, types, value);
}

/** Which sponsored call `td` is for; throws unless its types are exactly one of those built here (another shape would be signed but refused on chain). */
export function sponsoredTypedDataKind(td: TypedDataV4): SponsoredWitnessType | 'Eip2612Permit' {
  if (td.primaryType === 'Permit') {
    requireTypes(td, eip2612Types());
    return 'Eip2612Permit';
  }
  if (td.primaryType !== 'PermitWitnessTransferFrom')
    throw new SponsoredIntentError(`primaryType ${td.primaryType} is not a sponsored call`);
  const witnessType = td.types.PermitWitnessTransferFrom?.find((field) => field.name === 'witness')?.type;
  if (!witnessType || !Object.hasOwn(SPONSORED_INTENT_TYPES, witnessType))
    throw new SponsoredIntentError(`witness type ${witnessType ?? '(none)'} is not a sponsored intent`);
  const kind = witnessType as SponsoredWitnessType;
  requireTypes(td, permit2WitnessTypes(kind));
  if (td.domain.name !== 'Permit2')
    throw new SponsoredIntentError(`domain name ${td.domain.name} is not Permit2`);
  return kind;
}

function requireTypes(td: TypedDataV4, expected: Record<string, TypedDataFieldV4[]>): void {
  const { EIP712Domain: expectedDomain, ...expectedStructs } = expected;
  const { EIP712Domain: domainFields, ...structs } = td.types;
  const sameFields = (a: TypedDataFieldV4[] | undefined, b: TypedDataFieldV4[]) =>
    a !== undefined &&
    a.length === b.length &&
    a.every((field, i) => field.name === b[i].name && field.type === b[i].type);
  const structsMatch =
    Object.keys(structs).length === Object.keys(expectedStructs).length &&
    Object.entries(expectedStructs).every(([name, fields]) => sameFields(structs[name], fields));
  // A wallet hashes the domain with the EIP712Domain it is given (ethers with the keys present);
  // the contract's domain has exactly these fields.
  const domainKeys = Object.keys(td.domain).sort().join();
  const domainMatches =
    (domainFields === undefined || sameFields(domainFields, expectedDomain)) &&
    domainKeys ===
      expectedDomain
        .map((f) => f.name)
        .sort()
        .join();
  if (!structsMatch || !domainMatches)
    throw new SponsoredIntentError(
      `the typed data's types or domain are not those of a ${td.primaryType} the contracts verify`,
    );
}
