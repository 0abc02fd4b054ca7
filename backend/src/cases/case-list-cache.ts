import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { DataSource } from 'typeorm';
import type { SerialisedBody } from '../common/etag.js';
import type { LogListener } from '../event-store/log-listener.js';

const gzipAsync = promisify(gzip);
/** Level 4: about as small as the default 6 on this JSON, at half its CPU. */
const GZIP_LEVEL = 4;
const MAX_SCOPES = 64;
/**
 * A change that no notification announces (a rebuild swapping in new tables) is noticed by
 * comparing the table's shape this often.
 */
const SHAPE_CHECK_MS = 5_000;
/**
 * What a rebuild of case_view changes: the table (swapped in), its rows; and the log's last
 * position, which moves with every write of case_view (written with its events), so no index on
 * case_view.last_position is needed (migrations/045).
 */
const CASE_VIEW_SHAPE = `SELECT 'case_view'::regclass::oid || '-' || (SELECT coalesce(max(global_position), 0) FROM events)
  || '-' || count(*) AS shape
  FROM case_view`;

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
 * Every append is announced at its commit (the log listener), and case_view is written in the
 * appending transaction, so an announcement means the list may have changed: the generation moves
 * on and the ETag with it. This process's own commits move it at once, before their HTTP answer
 * (`committedHere`), and again when their NOTIFY arrives.
 * While the LISTEN connection is down nothing is cached (every call is a new generation), so a
 * missed notification can never serve a stale list.
 * A 304 thus costs no query at all and a 200 one write of a ready buffer.
 */
export class CaseListCache {
  private readonly logger = new Logger('CaseListCache');
  /** Tags of another process, or of an earlier run of this one, never match. */
  private readonly epoch = randomBytes(6).toString('base64url');
  private generation = 0;
  private readonly bodies = new Map<string, CachedBody>();
  private unsubscribe: (() => void) | undefined;
  private shapeTimer: NodeJS.Timeout | undefined;
  private shape: string | undefined;
  private readonly changed = () => {
    this.generation++;
  };

  constructor(
    private readonly dataSource: DataSource,
    private readonly log: LogListener,
    /** One row with a text `shape` that any rewrite of the listed table changes (see CASE_VIEW_SHAPE). */
    private readonly shapeSql = CASE_VIEW_SHAPE,
  ) {}

  /** The current version of a scope's list; `load` reads it (as JSON, text or UTF-8) when not cached. */
  async version(scope: string, load: () => Promise<string | Buffer>): Promise<ListVersion> {
    // Subscribed at the first read, not at construction: an app whose start fails before it
    // serves anything must leave no connection behind.
    this.unsubscribe ??= this.log.subscribe({
      appended: this.changed,
      // The NOTIFY of our own commit may come after its answer; the caller's next read may not.
      committedHere: this.changed,
      connected: this.connected,
      lost: this.changed,
    }).unsubscribe;
    if (!this.log.listening) {
      await this.log.ready();
      // Still not listening: this read must not be reused.
      if (!this.log.listening) this.generation++;
    }
    const generation = this.generation;
    return {
      tag: `"c${this.epoch}.${generation}-${Buffer.from(scope).toString('base64url')}"`,
      body: () => this.body(scope, generation, load),
    };
  }

  close(): void {
    this.unsubscribe?.();
    clearInterval(this.shapeTimer);
  }

  private body(
    scope: string,
    generation: number,
    load: () => Promise<string | Buffer>,
  ): Promise<SerialisedBody> {
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

  private readonly connected = () => {
    // Whatever was committed while nobody listened.
    this.changed();
    this.shapeTimer ??= setInterval(() => void this.checkShape(), SHAPE_CHECK_MS);
    this.shapeTimer.unref();
  };

  private async checkShape(): Promise<void> {
    try {
      const [{ shape }]: { shape: string }[] = await this.dataSource.query(this.shapeSql);
      if (this.shape !== undefined && shape !== this.shape) this.changed();
      this.shape = shape;
    } catch {
      // The database may be down; the next check tries again.
    }
  }
}

async function serialised(text: string | Buffer): Promise<SerialisedBody> {
  const json = typeof text === 'string' ? Buffer.from(text) : text;
  let gzipped: Promise<Buffer> | undefined;
  return { json, gzipped: () => (gzipped ??= gzipAsync(json, { level: GZIP_LEVEL })) };
}
