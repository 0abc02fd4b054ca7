import { Logger } from '@nestjs/common';
import type { EventEmitter2 } from '@nestjs/event-emitter';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { SerialisedBody } from '../common/etag.js';
import { EVENTS_COMMITTED } from './case-command.service.js';

const gzipAsync = promisify(gzip);
/**
 * Where every append is announced after its commit (migrations/003). Spelled here rather than
 * imported from the live stream, whose module graph leads back to the case queries.
 */
const NOTIFY_CHANNEL = 'events_appended';
/** Level 4: about as small as the default 6 on this JSON, at half its CPU. */
const GZIP_LEVEL = 4;
const MAX_SCOPES = 64;
const MAX_RECONNECT_DELAY_MS = 10_000;
/**
 * A change that no notification announces (a rebuild swapping in new tables) is noticed by
 * comparing the table's shape this often.
 */
const SHAPE_CHECK_MS = 5_000;

export interface ListVersion {
  tag: string;
  body(): Promise<SerialisedBody>;
}

interface CachedBody {
  generation: number;
  body: Promise<SerialisedBody>;
}

/**
 * The serialised case list of each visibility scope, kept while no event has been committed.
 *
 * Every append makes PostgreSQL NOTIFY `events_appended` at commit (migration 003), and case_view
 * is written in the appending transaction, so a notification means the list may have changed:
 * the generation moves on and the ETag with it. This process's own commits move it at once
 * (EVENTS_COMMITTED), before their HTTP answer. While the LISTEN connection is down nothing is
 * cached (every call is a new generation), so a missed notification can never serve a stale list.
 * A 304 thus costs no query at all and a 200 one write of a ready buffer.
 */
export class CaseListCache {
  private readonly logger = new Logger('CaseListCache');
  /** Tags of another process, or of an earlier run of this one, never match. */
  private readonly epoch = randomBytes(6).toString('base64url');
  private generation = 0;
  private readonly bodies = new Map<string, CachedBody>();
  private listener: Client | undefined;
  private connecting: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs = 250;
  private shapeTimer: NodeJS.Timeout | undefined;
  private shape: string | undefined;
  private stopped = false;
  private readonly changed = () => {
    this.generation++;
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly emitter: EventEmitter2,
  ) {
    this.emitter.on(EVENTS_COMMITTED, this.changed);
  }

  /** The current version of a scope's list; `load` reads it (as JSON text) when not cached. */
  async version(scope: string, load: () => Promise<string>): Promise<ListVersion> {
    if (!this.listener) {
      await (this.connecting ??= this.listen());
      // Still not listening: this read must not be reused.
      if (!this.listener) this.generation++;
    }
    const generation = this.generation;
    return {
      tag: `"c${this.epoch}.${generation}-${Buffer.from(scope).toString('base64url')}"`,
      body: () => this.body(scope, generation, load),
    };
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.emitter.off(EVENTS_COMMITTED, this.changed);
    clearTimeout(this.reconnectTimer);
    clearInterval(this.shapeTimer);
    await this.connecting;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private body(scope: string, generation: number, load: () => Promise<string>): Promise<SerialisedBody> {
    const cached = this.bodies.get(scope);
    if (cached?.generation === generation) return cached.body;
    // Read after `generation` was taken: the text holds at least every change announced before it.
    const body = load().then(serialised);
    this.bodies.delete(scope);
    if (this.bodies.size >= MAX_SCOPES) this.bodies.delete(this.bodies.keys().next().value!);
    this.bodies.set(scope, { generation, body });
    body.catch(() => {
      if (this.bodies.get(scope)?.body === body) this.bodies.delete(scope);
    });
    return body;
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const pool = (this.dataSource.driver as unknown as { master: { options: object } }).master;
    const client = new Client({ ...pool.options, application_name: 'alignerflow-case-list' });
    let lost = false;
    const onLost = (reason: string) => {
      if (lost) return;
      lost = true;
      this.changed();
      if (this.listener === client) this.listener = undefined;
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`LISTEN connection lost (${reason}); reconnecting in ${this.reconnectDelayMs} ms`);
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = setTimeout(() => {
        this.connecting = this.listen();
      }, this.reconnectDelayMs);
      this.reconnectTimer.unref();
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, MAX_RECONNECT_DELAY_MS);
    };
    client.on('error', (error) => onLost(error.message));
    client.on('end', () => onLost('ended'));
    client.on('notification', this.changed);
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      onLost((error as Error).message);
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    // Whatever was committed before the LISTEN took effect.
    this.changed();
    this.listener = client;
    this.reconnectDelayMs = 250;
    this.shapeTimer ??= setInterval(() => void this.checkShape(), SHAPE_CHECK_MS);
    this.shapeTimer.unref();
  }

  private async checkShape(): Promise<void> {
    try {
      const [row] = await this.dataSource.query(
        `SELECT 'case_view'::regclass::oid AS table, coalesce(max(last_position), 0) AS position,
                count(*) AS n FROM case_view`,
      );
      const shape = `${row.table}-${row.position}-${row.n}`;
      if (this.shape !== undefined && shape !== this.shape) this.changed();
      this.shape = shape;
    } catch {
      // The database may be down; the next check tries again.
    }
  }
}

async function serialised(text: string): Promise<SerialisedBody> {
  const json = Buffer.from(text);
  let gzipped: Promise<Buffer> | undefined;
  return { json, gzipped: () => (gzipped ??= gzipAsync(json, { level: GZIP_LEVEL })) };
}
