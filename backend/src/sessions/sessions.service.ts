import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { caseStreamId, parseRole, USER_LIMITS, type Actor } from '@alignerflow/domain';
import { hash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EVENTS_COMMITTED, type EventsCommitted } from '../event-store/log-listener.js';
import { runPrepared } from '../event-store/read-model.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { Clock } from '../common/clock.js';
import { ScheduledJob } from '../scheduling/scheduled-job.js';

const HOUR_MS = 60 * 60 * 1000;
export const REMEMBERED_SESSION_MS = 30 * 24 * HOUR_MS;
/** A Remember Me session unused this long ends (api.md Accounts). */
export const REMEMBERED_IDLE_MS = 7 * 24 * HOUR_MS;
export const SESSION_MS = 12 * HOUR_MS;
/**
 * How long a resolved session is trusted without asking the database again. This process forgets
 * an entry at once on logout, user deletion and any user change; the TTL bounds how long another
 * API process may still accept a session ended elsewhere.
 */
export const SESSION_CACHE_MS = 1_000;
const SESSION_CACHE_MAX_ENTRIES = 10_000;
/**
 * Tokens that opened no session, remembered for SESSION_CACHE_MS apart from the sessions, so that a
 * client that keeps calling with an ended token asks the database once a second, not per request,
 * and a flood of unknown tokens cannot push a live session out of the cache. A token never
 * becomes valid later: a sign-in makes a new random one.
 */
const UNKNOWN_TOKENS_MAX_ENTRIES = 1_000;
/** last_used_at is written at most this often per session: enough for an idle timeout in minutes. */
export const LAST_USE_RESOLUTION_MS = 60_000;
/** Ended and idle sessions are deleted this often (and once at start). */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;
const CASE_STREAM_PREFIX = caseStreamId('');

/** Every signed-in request hashes its token: the one-shot hash makes no Hash object for it. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'base64url');
}

/** A live session as a request sees it. */
export interface ResolvedSession {
  actor: Actor;
  /** The public id of the session (GET /auth/sessions). */
  id: string;
  /** A user who must have a second factor and has none yet: only /auth/* and GET /config. */
  setupOnly: boolean;
}

/** Where a sign-in came from, kept with its session for the user's list of sessions. */
export interface SessionOrigin {
  address: string | null;
  userAgent: string | null;
}

interface CachedSession {
  session: ResolvedSession;
  usernameKey: string;
  until: number;
}

/** Live sessions only: not past their end, not idle too long ($1 the idle minutes, $2 the Remember Me idle ms). */
const LIVE = `s.expires_at > now()
   AND CASE WHEN s.remember THEN s.last_used_at > now() - $2 * interval '1 millisecond'
            ELSE s.last_used_at > now() - $1 * interval '1 minute' END`;

/**
 * Server-side sessions: only a hash of the token is stored, so a leaked table opens nothing. A
 * session lasts SESSION_MS (REMEMBERED_SESSION_MS with Remember Me); without Remember Me it also
 * ends after SESSION_IDLE_MINUTES unused. Ending sessions deletes their rows: the database is what
 * counts, every process's cache only delays that by at most SESSION_CACHE_MS.
 */
/** A row of GET /auth/sessions, before it is shaped. */
export interface SessionRow {
  id: string;
  token_hash: string;
  created_at: Date;
  last_used_at: Date;
  address: string | null;
  user_agent: string | null;
  remember: boolean;
}

@Injectable()
export class SessionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Sessions');
  // Every process purges: each DELETE is idempotent, so no lock is needed.
  private readonly purge = new ScheduledJob(
    { name: 'Sessions', what: 'purge', intervalMs: PURGE_INTERVAL_MS, runAtStart: true },
    () => this.purgeEnded(),
  );
  private readonly cache = new Map<string, CachedSession>();
  /** Token hash → until when it is known to open no session. */
  private readonly unknown = new Map<string, number>();
  /** Lookups under way: requests of one caller that arrive together ask the database once. */
  private readonly lookups = new Map<string, Promise<ResolvedSession | undefined>>();
  /** Moves on every invalidation, so that a lookup begun before it never stores what it read. */
  private invalidations = 0;
  private readonly onCommitted = ({ events }: EventsCommitted) => {
    // A user event (role change, deletion) or a restore may change who a session is: forget them all.
    if (events.some((event) => !event.streamId.startsWith(CASE_STREAM_PREFIX))) this.forgetAll();
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.emitter.on(EVENTS_COMMITTED, this.onCommitted);
  }

  async onModuleInit(): Promise<void> {
    await this.purge.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.purge.stop();
    this.emitter.off(EVENTS_COMMITTED, this.onCommitted);
  }

  async start(
    username: string,
    remember: boolean,
    origin: SessionOrigin,
    setupOnly = false,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + (remember ? REMEMBERED_SESSION_MS : SESSION_MS));
    await this.dataSource.query(
      `INSERT INTO sessions (token_hash, username_key, expires_at, remember, address, user_agent, mfa_setup_only, proved_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        hashToken(token),
        username.toLowerCase(),
        expiresAt,
        remember,
        origin.address,
        origin.userAgent?.slice(0, 512) ?? null,
        setupOnly,
        // The sign-in proves the user: step-up calls need no confirmation for the next minutes.
        new Date(this.clock.now()),
      ],
    );
    await this.endBeyondLimit(username);
    return { token, expiresAt };
  }

  /**
   * At most USER_LIMITS.sessionsPerUser open sessions per user (api.md, "Patient data"): a new
   * sign-in past that ends the oldest, so a leaked password cannot pile up sessions unseen.
   */
  private async endBeyondLimit(username: string): Promise<void> {
    const [rows]: [{ token_hash: string }[], number] = await this.dataSource.query(
      `DELETE FROM sessions WHERE token_hash IN (
         SELECT token_hash FROM sessions WHERE username_key = $1
          ORDER BY created_at DESC, id DESC OFFSET $2)
       RETURNING token_hash`,
      [username.toLowerCase(), USER_LIMITS.sessionsPerUser],
    );
    const ended = new Set(rows.map((row) => row.token_hash));
    if (ended.size > 0) this.forget((key) => ended.has(key));
  }

  /**
   * When the session of `tokenHash` ends if not used again: its absolute end, or its last use plus
   * the idle window, whichever is sooner (GET /auth/me's expiresAt). The last use is written at
   * most every LAST_USE_RESOLUTION_MS, so this may be that much early, never late.
   */
  async endOf(tokenHash: string): Promise<Date | null> {
    const [row]: { ends: Date }[] = await this.dataSource.query(
      `SELECT least(s.expires_at, CASE WHEN s.remember THEN s.last_used_at + $2 * interval '1 millisecond'
                                        ELSE s.last_used_at + $1 * interval '1 minute' END) AS ends
         FROM sessions s WHERE s.token_hash = $3`,
      [this.config.sessionIdleMinutes, REMEMBERED_IDLE_MS, tokenHash],
    );
    return row ? new Date(row.ends) : null;
  }

  /** Deletes the sessions past their end or idle too long; returns how many. */
  async purgeEnded(): Promise<number> {
    try {
      const [, removed]: [unknown, number] = await this.dataSource.query(
        `DELETE FROM sessions s WHERE NOT (${LIVE})`,
        [this.config.sessionIdleMinutes, REMEMBERED_IDLE_MS],
      );
      await this.dataSource.query('DELETE FROM known_devices WHERE expires_at <= now()');
      return removed;
    } catch (error) {
      // Retried at the next interval; resolve() refuses such sessions meanwhile anyway.
      this.logger.warn(`purge failed: ${(error as Error).message}`);
      return 0;
    }
  }

  /** The signed-in user of a live session whose user still exists. */
  resolve(tokenHash: string): Promise<ResolvedSession | undefined> {
    const now = Date.now();
    const cached = this.cache.get(tokenHash);
    if (cached && cached.until > now) return Promise.resolve(cached.session);
    if ((this.unknown.get(tokenHash) ?? 0) > now) return Promise.resolve(undefined);
    let lookup = this.lookups.get(tokenHash);
    if (!lookup) {
      const started = this.lookUp(tokenHash).finally(() => {
        if (this.lookups.get(tokenHash) === started) this.lookups.delete(tokenHash);
      });
      this.lookups.set(tokenHash, (lookup = started));
    }
    return lookup;
  }

  private async lookUp(tokenHash: string): Promise<ResolvedSession | undefined> {
    const invalidationsBefore = this.invalidations;
    // Prepared: asked about once a second per signed-in caller, so planning it each time cost
    // more than running it.
    const rows = await runPrepared<{
      username: string;
      role: string;
      username_key: string;
      expires_at: Date;
      id: string;
      mfa_setup_only: boolean;
      touch: boolean;
    }>(
      this.dataSource,
      `SELECT u.username, u.role, u.username_key, s.expires_at, s.id, s.mfa_setup_only,
              s.last_used_at <= now() - $3 * interval '1 millisecond' AS touch
         FROM sessions s
         JOIN user_view u ON u.username_key = s.username_key
        WHERE s.token_hash = $4 AND NOT u.deleted AND ${LIVE}`,
      [this.config.sessionIdleMinutes, REMEMBERED_IDLE_MS, LAST_USE_RESOLUTION_MS, tokenHash],
    );
    const role = rows[0] && parseRole(rows[0].role);
    if (!role) {
      this.cache.delete(tokenHash);
      if (this.invalidations === invalidationsBefore) {
        if (this.unknown.size >= UNKNOWN_TOKENS_MAX_ENTRIES) this.unknown.clear();
        this.unknown.set(tokenHash, Date.now() + SESSION_CACHE_MS);
      }
      return undefined;
    }
    if (rows[0].touch)
      await this.dataSource.query('UPDATE sessions SET last_used_at = now() WHERE token_hash = $1', [
        tokenHash,
      ]);
    const session: ResolvedSession = {
      actor: { username: rows[0].username, role },
      id: rows[0].id,
      setupOnly: rows[0].mfa_setup_only,
    };
    if (this.invalidations === invalidationsBefore) {
      if (this.cache.size >= SESSION_CACHE_MAX_ENTRIES) this.cache.clear();
      const until = Math.min(Date.now() + SESSION_CACHE_MS, new Date(rows[0].expires_at).getTime());
      this.cache.set(tokenHash, { session, usernameKey: rows[0].username_key, until });
    }
    return session;
  }

  /** The user's live sessions, newest first (GET /auth/sessions). */
  async list(username: string): Promise<SessionRow[]> {
    return this.dataSource.query(
      `SELECT s.id, s.token_hash, s.created_at, s.last_used_at, s.address, s.user_agent, s.remember
         FROM sessions s WHERE s.username_key = $3 AND ${LIVE}
        ORDER BY s.created_at DESC`,
      [this.config.sessionIdleMinutes, REMEMBERED_IDLE_MS, username.toLowerCase()],
    );
  }

  /** Ends one session of the user by its public id; false when the user has no such session. */
  async endById(username: string, id: string): Promise<boolean> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
    // A DELETE answers [rows, count] through TypeORM.
    const [rows]: [{ token_hash: string }[], number] = await this.dataSource.query(
      'DELETE FROM sessions WHERE id = $1 AND username_key = $2 RETURNING token_hash',
      [id, username.toLowerCase()],
    );
    for (const row of rows) this.forget((key) => key === row.token_hash);
    return rows.length > 0;
  }

  /** The user now has a second factor: their setup-only sessions become full ones. */
  async lift(username: string): Promise<void> {
    await this.setSetupOnly(username, false);
  }

  /** The user of a role that must have a second factor has none left: setting one up is all they may do. */
  async restrict(username: string): Promise<void> {
    await this.setSetupOnly(username, true);
  }

  private async setSetupOnly(username: string, setupOnly: boolean): Promise<void> {
    const usernameKey = username.toLowerCase();
    await this.dataSource.query('UPDATE sessions SET mfa_setup_only = $2 WHERE username_key = $1', [
      usernameKey,
      setupOnly,
    ]);
    this.forget((_, session) => session.usernameKey === usernameKey);
  }

  async end(tokenHash: string): Promise<void> {
    this.forget((key) => key === tokenHash);
    await this.dataSource.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash]);
    // Again: a lookup that began before the delete and finished after the first forget.
    this.forget((key) => key === tokenHash);
  }

  /** Ends every session of the user, except the one whose token hash is `keep` (the caller's own). */
  async endAllFor(username: string, keep?: string): Promise<void> {
    const usernameKey = username.toLowerCase();
    const ends = (tokenHash: string, session: CachedSession) =>
      session.usernameKey === usernameKey && tokenHash !== keep;
    this.forget(ends);
    await this.dataSource.query('DELETE FROM sessions WHERE username_key = $1 AND token_hash <> $2', [
      usernameKey,
      keep ?? '',
    ]);
    this.forget(ends);
  }

  private forget(matches: (tokenHash: string, session: CachedSession) => boolean): void {
    this.invalidations++;
    // A request after this one asks anew, not the lookup begun before the change.
    this.lookups.clear();
    for (const [tokenHash, session] of this.cache)
      if (matches(tokenHash, session)) this.cache.delete(tokenHash);
  }

  private forgetAll(): void {
    this.invalidations++;
    this.lookups.clear();
    this.unknown.clear();
    this.cache.clear();
  }
}
