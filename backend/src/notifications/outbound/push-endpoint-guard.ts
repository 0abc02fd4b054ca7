import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { Agent, type Agent as HttpsAgent } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import {
  NOTIFICATIONS_CONFIG,
  pushEndpointHost,
  type NotificationsConfig,
} from '../../config/notifications.config.js';
import { nonPublicKind } from './non-public-address.js';

/** The `code` of every refusal, so it can be told from network trouble wherever it surfaces. */
export const PUSH_ENDPOINT_REFUSED = 'EPUSHENDPOINTREFUSED';

/** An endpoint the server must not send to; `message` says why, for the delivery's lastError. */
export class PushEndpointRefused extends Error {
  override name = 'PushEndpointRefused';
  readonly code = PUSH_ENDPOINT_REFUSED;
}

/** Names of cloud metadata services that may not resolve to their link-local address everywhere. */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog']);

/** Where and how to send to an endpoint that passed the checks a URL allows. */
export interface PushTarget {
  url: URL;
  /** The host as https.request wants it (IPv6 without brackets). */
  hostname: string;
  port: number;
  /** Listed in PUSH_ALLOWED_HOSTS: sent to as configured, without the public-address checks. */
  allowedByOperator: boolean;
}

/**
 * Push endpoints come from users (any signed-in user, a doctor included), so the server must
 * never be made to send to itself or its network: only `https://` on public addresses, except
 * the `host:port`s the operator lists in PUSH_ALLOWED_HOSTS. Checked when a browser subscribes,
 * and again on every send with the connection pinned to the addresses the check saw
 * (`publicOnlyLookup`), so a name that resolves elsewhere by then (DNS rebinding) is refused too.
 */
@Injectable()
export class PushEndpointGuard implements OnModuleDestroy {
  /** Keep-alive connections to public push services; every one of them made through publicOnlyLookup. */
  readonly publicAgent: HttpsAgent = new Agent({ keepAlive: true, lookup: publicOnlyLookup });

  constructor(
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: Pick<NotificationsConfig, 'pushAllowedHosts'>,
  ) {}

  /** The checks the URL alone allows (scheme, listed host, literal address, metadata names). */
  target(endpoint: string): PushTarget {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new PushEndpointRefused('Push endpoint not allowed: not a URL.');
    }
    if (url.protocol !== 'https:') throw new PushEndpointRefused('Push endpoint not allowed: not https.');
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
    const target = { url, hostname, port: Number(url.port || 443), allowedByOperator: false };
    if (this.config.pushAllowedHosts.has(pushEndpointHost(url)))
      return { ...target, allowedByOperator: true };
    if (isIP(hostname)) {
      const kind = nonPublicKind(hostname);
      if (kind) throw new PushEndpointRefused(`Push endpoint not allowed: ${hostname} is a ${kind} address.`);
    } else if (METADATA_NAMES.has(hostname)) {
      throw new PushEndpointRefused(`Push endpoint not allowed: ${hostname} is a metadata service.`);
    }
    return target;
  }

  /** Everything, the host's addresses included: for a new subscription. Throws PushEndpointRefused. */
  async check(endpoint: string): Promise<PushTarget> {
    const target = this.target(endpoint);
    if (!target.allowedByOperator && !isIP(target.hostname))
      await new Promise<void>((resolve, reject) =>
        publicOnlyLookup(target.hostname, { all: true }, (error) => (error ? reject(error) : resolve())),
      );
    return target;
  }

  onModuleDestroy(): void {
    this.publicAgent.destroy();
  }
}

/**
 * dns.lookup that answers only when every address of the name is public, else fails with
 * PushEndpointRefused: given to the connection itself, the addresses checked are the ones
 * connected to.
 */
export const publicOnlyLookup = ((
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => {
  const wantAll = options.all === true;
  dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, wantAll ? [] : '');
    const refused = addresses.find(({ address }) => nonPublicKind(address) !== null);
    if (refused || addresses.length === 0) {
      const why = refused
        ? `${hostname} resolves to ${refused.address}, a ${nonPublicKind(refused.address)} address`
        : `${hostname} has no address`;
      return callback(new PushEndpointRefused(`Push endpoint not allowed: ${why}.`), wantAll ? [] : '');
    }
    if (wantAll) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}) as LookupFunction;
