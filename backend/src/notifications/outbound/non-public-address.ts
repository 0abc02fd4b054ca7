import { isIP } from 'node:net';

/** Why an address is not one the server may be made to send to. */
export type NonPublicKind =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared'
  | 'unique-local'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

type Range = [network: string, prefixLength: number, kind: NonPublicKind];

/**
 * IANA's special-purpose IPv4 registry and the cloud metadata address. Order matters: the first
 * match names the kind, so narrower ranges come before the ranges that hold them.
 */
const IPV4_RANGES: Range[] = [
  ['169.254.169.254', 32, 'metadata'],
  ['255.255.255.255', 32, 'broadcast'],
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** The same for IPv6; beyond these, anything outside global unicast (2000::/3) is refused too. */
const IPV6_RANGES: Range[] = [
  ['fd00:ec2::254', 128, 'metadata'],
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'private'],
  ['100::', 64, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['2001::', 23, 'reserved'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'reserved'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

const parsedV4 = IPV4_RANGES.map(([network, bits, kind]) => ({ network: ipv4Number(network)!, bits, kind }));
const parsedV6 = IPV6_RANGES.map(([network, bits, kind]) => ({ network: ipv6Number(network)!, bits, kind }));

/**
 * null when `address` (an IPv4 or IPv6 literal, as dns.lookup answers or a URL holds it, brackets
 * and zone allowed) is a public unicast address; else why not. Addresses that carry an IPv4
 * address inside (IPv4-mapped, NAT64, 6to4) are judged by that IPv4 address, since that is where
 * a packet to them may end up. Anything that is not an IP address counts as reserved.
 */
export function nonPublicKind(address: string): NonPublicKind | null {
  const text = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(text);
  if (version === 4) return ipv4Kind(ipv4Number(text)!);
  if (version !== 6) return 'reserved';
  const value = ipv6Number(text);
  if (value === null) return 'reserved';
  const embedded = embeddedIpv4(value);
  if (embedded !== undefined) return embedded === null ? 'reserved' : ipv4Kind(embedded);
  for (const range of parsedV6) if (inRange(value, range.network, range.bits, 128)) return range.kind;
  return inRange(value, 0x2n << 124n, 3, 128) ? null : 'reserved';
}

function ipv4Kind(value: number): NonPublicKind | null {
  const address = BigInt(value);
  for (const range of parsedV4)
    if (inRange(address, BigInt(range.network), range.bits, 32)) return range.kind;
  return null;
}

/**
 * The IPv4 address an IPv6 one stands for: IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) and
 * 6to4 (2002::/16); null for the deprecated IPv4-compatible form (::/96), which no one should
 * use; undefined when it holds none.
 */
function embeddedIpv4(value: bigint): number | null | undefined {
  const low32 = Number(value & 0xffffffffn);
  if (value >> 32n === 0xffffn) return low32;
  if (value >> 32n === 0x64ff9b0000000000000000n) return low32;
  if (value >> 112n === 0x2002n) return Number((value >> 80n) & 0xffffffffn);
  if (value >> 32n === 0n && value > 1n) return null;
  return undefined;
}

function inRange(value: bigint, network: bigint, bits: number, width: number): boolean {
  const shift = BigInt(width - bits);
  return value >> shift === network >> shift;
}

function ipv4Number(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.reduce((sum, part) => sum * 256 + Number(part), 0);
}

/** A valid IPv6 literal (net.isIP said so) as a 128-bit number. */
function ipv6Number(text: string): bigint | null {
  let hex = text.toLowerCase();
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(hex);
  if (dotted) {
    const v4 = ipv4Number(dotted[2]);
    if (v4 === null) return null;
    hex = `${dotted[1]}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const words = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const word of words) {
    if (!/^[0-9a-f]{1,4}$/.test(word)) return null;
    value = (value << 16n) | BigInt(parseInt(word, 16));
  }
  return value;
}
