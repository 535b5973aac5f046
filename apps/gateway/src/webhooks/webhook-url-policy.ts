import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

/** What an IP address is, for deciding whether the gateway may send a webhook to it. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

type Range = [base: bigint, prefix: number, kind: Exclude<AddressClass, 'public'>];

const V4_RANGES: Array<[string, number, Exclude<AddressClass, 'public'>]> = [
  ['0.0.0.0', 8, 'reserved'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'], // cloud metadata endpoints live here
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'reserved'], // multicast
  ['240.0.0.0', 4, 'reserved'], // reserved and broadcast
];

const V6_RANGES: Array<[string, number, Exclude<AddressClass, 'public'>]> = [
  ['::', 128, 'reserved'], // unspecified
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved'], // deprecated site-local
  ['ff00::', 8, 'reserved'], // multicast
  ['2001:db8::', 32, 'reserved'], // documentation
  ['100::', 64, 'reserved'], // discard
];

function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(Number(octet)), 0n);
}

function v6ToBigInt(address: string): bigint {
  let text = address.toLowerCase().split('%')[0];
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4ToBigInt(dotted[1]);
    text = text.slice(0, -dotted[1].length) + `${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const parts =
    tail === undefined ? headParts : [...headParts, ...Array<string>(missing).fill('0'), ...tailParts];
  return parts.reduce((acc, part) => (acc << 16n) | BigInt(parseInt(part || '0', 16)), 0n);
}

const compile = (ranges: typeof V4_RANGES, bits: number, parse: (a: string) => bigint): Range[] =>
  ranges.map(([base, prefix, kind]) => [parse(base) >> BigInt(bits - prefix), prefix, kind]);
const V4 = compile(V4_RANGES, 32, v4ToBigInt);
const V6 = compile(V6_RANGES, 128, v6ToBigInt);
const NAT64_PREFIX = v6ToBigInt('64:ff9b::') >> 32n;

function classifyIn(value: bigint, bits: number, ranges: Range[]): AddressClass {
  for (const [base, prefix, kind] of ranges) if (value >> BigInt(bits - prefix) === base) return kind;
  return 'public';
}

/**
 * Classifies an IP address (v4, v6, or v4 inside v6: mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96,
 * compatible ::a.b.c.d), so that a name resolving to an internal address is refused however it is
 * spelled. Anything that is not an IP address is `reserved`.
 */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address.split('%')[0]);
  if (family === 4) return classifyIn(v4ToBigInt(address), 32, V4);
  if (family !== 6) return 'reserved';
  const value = v6ToBigInt(address);
  const upper = value >> 32n;
  // ::ffff:0:0/96 (mapped), 64:ff9b::/96 (NAT64) and ::/96 (compatible, but not :: or ::1) carry an IPv4 address.
  if (upper === 0xffffn || upper === NAT64_PREFIX || (upper === 0n && value > 1n))
    return classifyIn(value & 0xffffffffn, 32, V4);
  return classifyIn(value, 128, V6);
}

export interface WebhookUrlPolicy {
  /** Development flag (WEBHOOK_ALLOW_LOOPBACK_HTTP): loopback targets allowed, over http too. */
  allowLoopbackHttp: boolean;
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2048;

/** An address the policy lets the gateway connect to. */
export function addressAllowed(address: string, policy: WebhookUrlPolicy): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (kind === 'loopback' && policy.allowLoopbackHttp);
}

const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The checks that need no DNS: an absolute https URL (http only to a loopback host with the
 * development flag), no credentials, and a host that is not an internal IP literal.
 */
export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): UrlVerdict {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL are not accepted' };
  const host = hostOf(url);
  const loopbackHost = isLocalhostName(host) || (isIP(host) !== 0 && classifyAddress(host) === 'loopback');
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopbackHttp && loopbackHost))
      return { ok: false, reason: 'only https URLs are accepted' };
  } else if (url.protocol !== 'https:') {
    return { ok: false, reason: 'only https URLs are accepted' };
  }
  if (isLocalhostName(host) && !policy.allowLoopbackHttp)
    return { ok: false, reason: 'loopback hosts are not accepted' };
  if (isIP(host) !== 0 && !addressAllowed(host, policy))
    return { ok: false, reason: `${classifyAddress(host)} addresses are not accepted` };
  return { ok: true, url };
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * Resolves the host and refuses it when any of its addresses is not allowed (a name with one
 * public and one internal address would let the connection pick the internal one).
 */
export async function resolveAllowed(
  host: string,
  policy: WebhookUrlPolicy,
  resolve: Resolver = systemResolver,
): Promise<LookupAddress[]> {
  if (isIP(host) !== 0) {
    if (!addressAllowed(host, policy))
      throw new WebhookTargetRefused(`${host} is a ${classifyAddress(host)} address`);
    return [{ address: host, family: isIP(host) }];
  }
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new WebhookTargetRefused(`${host} does not resolve`);
  const refused = addresses.find((a) => !addressAllowed(a.address, policy));
  if (refused)
    throw new WebhookTargetRefused(
      `${host} resolves to ${refused.address}, a ${classifyAddress(refused.address)} address`,
    );
  return addresses;
}

export class WebhookTargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookTargetRefused';
  }
}

/**
 * A `lookup` for http(s).request that connects only to addresses the policy allows, checked on the
 * very addresses the socket will use (no window between the check and the connection in which a
 * DNS answer could change: DNS rebinding).
 */
export function guardedLookup(policy: WebhookUrlPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, policy, resolve).then(
      (addresses) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? addresses.filter((a) => a.family === options.family)
            : addresses;
        const usable = wanted.length > 0 ? wanted : addresses;
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
