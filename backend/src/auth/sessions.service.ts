import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { caseStreamId, parseRole, type Actor } from '@alignerflow/domain';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EVENTS_COMMITTED, type EventsCommitted } from '../cases/case-command.service.js';

const HOUR_MS = 60 * 60 * 1000;
export const REMEMBERED_SESSION_MS = 30 * 24 * HOUR_MS;
export const SESSION_MS = 12 * HOUR_MS;
/**
 * How long a resolved session is trusted without asking the database again. This process forgets
 * an entry at once on logout, user deletion and any user change; the TTL bounds how long another
 * API process may still accept a session ended elsewhere.
 */
export const SESSION_CACHE_MS = 1_000;
const SESSION_CACHE_MAX_ENTRIES = 10_000;
const CASE_STREAM_PREFIX = caseStreamId('');

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

interface CachedSession {
  actor: Actor;
  usernameKey: string;
  until: number;
}

/** Server-side sessions: only a hash of the token is stored, so a leaked table opens nothing. */
@Injectable()
export class SessionsService implements OnModuleDestroy {
  private readonly cache = new Map<string, CachedSession>();
  /** Moves on every invalidation, so that a lookup begun before it never stores what it read. */
  private invalidations = 0;
  private readonly onCommitted = ({ events }: EventsCommitted) => {
    // A user event (role change, deletion) or a restore may change who a session is: forget them all.
    if (events.some((event) => !event.streamId.startsWith(CASE_STREAM_PREFIX))) this.forgetAll();
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
  ) {
    this.emitter.on(EVENTS_COMMITTED, this.onCommitted);
  }

  onModuleDestroy(): void {
    this.emitter.off(EVENTS_COMMITTED, this.onCommitted);
  }

  async start(username: string, remember: boolean): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + (remember ? REMEMBERED_SESSION_MS : SESSION_MS));
    await this.dataSource.query(
      'INSERT INTO sessions (token_hash, username_key, expires_at) VALUES ($1, $2, $3)',
      [hashToken(token), username.toLowerCase(), expiresAt],
    );
    return { token, expiresAt };
  }

  /** The signed-in user of a live session whose user still exists. */
  async resolve(tokenHash: string): Promise<Actor | undefined> {
    const cached = this.cache.get(tokenHash);
    if (cached && cached.until > Date.now()) return cached.actor;
    const invalidationsBefore = this.invalidations;
    const rows: { username: string; role: string; username_key: string; expires_at: Date }[] =
      await this.dataSource.query(
        `SELECT u.username, u.role, u.username_key, s.expires_at FROM sessions s
           JOIN user_view u ON u.username_key = s.username_key
          WHERE s.token_hash = $1 AND s.expires_at > now() AND NOT u.deleted`,
        [tokenHash],
      );
    const role = rows[0] && parseRole(rows[0].role);
    if (!role) {
      this.cache.delete(tokenHash);
      return undefined;
    }
    const actor: Actor = { username: rows[0].username, role };
    if (this.invalidations === invalidationsBefore) {
      if (this.cache.size >= SESSION_CACHE_MAX_ENTRIES) this.cache.clear();
      const until = Math.min(Date.now() + SESSION_CACHE_MS, new Date(rows[0].expires_at).getTime());
      this.cache.set(tokenHash, { actor, usernameKey: rows[0].username_key, until });
    }
    return actor;
  }

  async end(tokenHash: string): Promise<void> {
    this.forget((key) => key === tokenHash);
    await this.dataSource.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
    // Again: a lookup that began before the delete and finished after the first forget.
    this.forget((key) => key === tokenHash);
  }

  async endAllFor(username: string): Promise<void> {
    const usernameKey = username.toLowerCase();
    this.forget((_, session) => session.usernameKey === usernameKey);
    await this.dataSource.query('DELETE FROM sessions WHERE username_key = $1', [usernameKey]);
    this.forget((_, session) => session.usernameKey === usernameKey);
  }

  private forget(matches: (tokenHash: string, session: CachedSession) => boolean): void {
    this.invalidations++;
    for (const [tokenHash, session] of this.cache)
      if (matches(tokenHash, session)) this.cache.delete(tokenHash);
  }

  private forgetAll(): void {
    this.invalidations++;
    this.cache.clear();
  }
}
