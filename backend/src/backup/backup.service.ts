import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  caseStreamId,
  evolve,
  evolveUser,
  foldCase,
  isAdminUsername,
  sameUsername,
  userStreamId,
  type Actor,
  type UserEventData,
  RESTORE_MARKER,
  ACCOUNT_TEXTS,
  checkBackup,
  checkBackupMaterials,
  type BackupCase,
  type BackupUser,
  type RestoreAnswer,
} from '@alignerflow/domain';
import type { ServerResponse } from 'node:http';
import { DataSource, type QueryRunner } from 'typeorm';
import { EVENTS_COMMITTED, type EventsCommitted } from '../event-store/log-listener.js';
import { toCaseEvent } from '../cases/case-events.js';
import { caseImportEvents, CaseImportService, type CaseImportReport } from './case-import.service.js';
import { CaseViewProjection, WHOLE_CASE_SQL } from '../cases/projections/case-view.projection.js';
import { DomainRejection } from '../common/domain-rejection.js';
import { drained } from '../common/drained.js';
import {
  EventStore,
  WrongExpectedVersionError,
  type EventMetadata,
  type RecordedEvent,
} from '../event-store/event-store.js';
import { hashPassword } from '../users/passwords.js';
import { isCommonPassword } from '../common/password-policy.js';
import { userStateOf, UserViewProjection, type UserViewRow } from '../users/user-view.projection.js';
import { applyReportRows } from '../reports/report-rows.projection.js';
import { MaterialsBackup } from '../materials-store/materials-backup.js';
import { BillingBackup } from '../billing/billing-backup.js';
import { storedRowsOf, withStoredRow } from '../audit/export-seals.js';

export const RESTORE_STREAM = 'system-restores';
const EXPORT_BATCH = 5000;
const RESTORE_ATTEMPTS = 3;
/** argon2 hashes at once: each holds its memory cost and a libuv thread while it runs. */
const HASHING_CONCURRENCY = 4;
const RESTORE_CONFLICT = 'The data changed while it was being restored. Try the restore again.';

type ImportedUser = Required<Omit<BackupUser, 'password' | 'notify'>> & Pick<BackupUser, 'notify'>;

/** Where a restore's time went (wall clock, ms): logged, and read by bench/bulk-import.bench.ts. */
export interface RestoreReport {
  /** checkBackup: the whole file checked and brought into today's shape. */
  checkMs: number;
  /** Plain passwords hashed (none when the file carries hashes). */
  hashMs: number;
  /**
   * The import transaction that committed, from BEGIN to COMMIT included, and the making or
   * loading of its cases' keys just before it (`keysMs`).
   */
  transactionMs: number;
  /**
   * From the call to the transaction's first statement: the cases' keys made or loaded
   * (EventStore.withTransactionFor), a pooled connection, BEGIN.
   */
  keysMs: number;
  attempts: number;
  /** The cases' part of that transaction; its bulk append is `cases.appendMs`. */
  cases: CaseImportReport;
}

/**
 * Backup, restore and export of the event log. A restore overwrites nothing: it appends a
 * BackupRestored marker and import events (UserImported, CaseImported, and UserDeleted /
 * CaseDeleted for what the backup lacks) in one transaction, which also writes every read-model
 * row those events change, as a rebuild by replay would write it. The history before the restore
 * stays in the log.
 */
@Injectable()
export class BackupService {
  private readonly logger = new Logger('Backup');
  /** The last restore's timings, for operations and the bulk-import benchmark. */
  lastRestore: RestoreReport | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly caseImport: CaseImportService,
    private readonly caseProjection: CaseViewProjection,
    private readonly userProjection: UserViewProjection,
    private readonly emitter: EventEmitter2,
    private readonly materialsBackup: MaterialsBackup,
    private readonly billing: BillingBackup,
  ) {}

  /**
   * `{users, cases}` as one JSON text: users in their public shape plus `passwordHash`, cases as
   * GET /cases shows them. Both from one snapshot; the case list is assembled by PostgreSQL.
   */
  async backupJson(): Promise<string> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const [{ users }] = await runner.query(
        `SELECT coalesce(json_agg(json_build_object('username', username, 'role', role, 'email', email,
                  'activationSoundEnabled', activation_sound_enabled,
                  'notify', json_build_object('push', notify_push, 'email', notify_email),
                  'passwordHash', password_hash)
                  ORDER BY username_key), '[]')::text AS users
           FROM user_view WHERE NOT deleted`,
      );
      // Every case the staff list shows, whole: its notes included.
      const [{ cases }] = await runner.query(
        `SELECT coalesce(json_agg(${WHOLE_CASE_SQL} ORDER BY v.created_date DESC, v.id), '[]')::text AS cases
           FROM case_view v WHERE NOT v.deleted`,
      );
      const billing = await this.billing.json(runner);
      await runner.query('COMMIT');
      return `{"users":${users},"cases":${cases},"materials":${await this.materialsBackup.json()},"billing":${billing}}`;
    } finally {
      await runner.release();
    }
  }

  /** Validates the whole file, then imports it and updates the read models in one transaction. */
  async restore(body: unknown, actor: Actor, correlationId: string): Promise<RestoreAnswer> {
    const checkStarted = performance.now();
    const checked = checkBackup(body, new Date().toISOString());
    const checkMs = performance.now() - checkStarted;
    if ('error' in checked) {
      throw new DomainRejection({
        kind: 'invalid',
        message: checked.error,
        ...(checked.details.length > 1 ? { details: checked.details } : {}),
      });
    }
    // The word list is the server's alone (too large for the shared rules): checked here.
    const guessable = checked.value.users.findIndex(
      (user) => user.password && isCommonPassword(user.password),
    );
    if (guessable >= 0)
      throw new DomainRejection({
        kind: 'invalid',
        message: `Invalid user at index ${guessable} (${checked.value.users[guessable].username}): ${ACCOUNT_TEXTS.passwordTooEasy}`,
      });
    const { cases } = checked.value;
    const materials = checkBackupMaterials((body as { materials?: unknown }).materials);
    if ('error' in materials) throw new DomainRejection({ kind: 'invalid', message: materials.error });
    const billing = this.billing.check(body);
    // Hashing is slow on purpose: done before the transaction, a few at a time.
    const hashStarted = performance.now();
    const users = await mapLimit(checked.value.users, HASHING_CONCURRENCY, withPasswordHash);
    const hashMs = performance.now() - hashStarted;
    const metadata: EventMetadata = { actor, correlationId };
    const caseEvents = caseImportEvents(cases);

    let imported: { marker: RecordedEvent; cases: CaseImportReport } | undefined;
    let transactionMs = 0;
    let keysMs = 0;
    let attempt = 1;
    for (; !imported; attempt++) {
      try {
        const started = performance.now();
        imported = await this.store.withTransactionFor(caseEvents, async (runner) => {
          keysMs = performance.now() - started;
          const done = await this.importAll(runner, users, cases, actor, metadata);
          await this.materialsBackup.restore(runner, materials.value, metadata);
          await this.billing.restore(runner, billing, actor, metadata);
          return done;
        });
        transactionMs = performance.now() - started;
      } catch (error) {
        // A command changed a user or a case between our read and our append: nothing was written.
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (attempt >= RESTORE_ATTEMPTS)
          throw new DomainRejection({ kind: 'conflict', message: RESTORE_CONFLICT });
      }
    }
    this.emitter.emit(EVENTS_COMMITTED, { events: [imported.marker] } satisfies EventsCommitted);
    // No rebuild by replay follows: the transaction wrote the rows a rebuild would write
    // (test/backup.e2e.ts checks that one changes nothing), and replaying the whole log took longer
    // than the import itself.
    const report = (this.lastRestore = {
      checkMs,
      hashMs,
      transactionMs,
      keysMs,
      attempts: attempt - 1,
      cases: imported.cases,
    });
    this.logger.log(
      `${actor.username} restored ${users.length} users and ${cases.length} cases ` +
        `(check ${ms(report.checkMs)}, hashing ${ms(report.hashMs)}, keys and transaction ${ms(report.transactionMs)}, ` +
        `of which appending the cases ${ms(report.cases.appendMs)}).`,
    );
    return { users: users.length, cases: cases.length };
  }

  private async importAll(
    runner: QueryRunner,
    users: ImportedUser[],
    cases: BackupCase[],
    actor: Actor,
    metadata: EventMetadata,
  ): Promise<{ marker: RecordedEvent; cases: CaseImportReport }> {
    // The lock order of case commands and of the rebuild's swap: case_ids, then events, then views.
    await runner.query('LOCK TABLE case_ids IN ROW EXCLUSIVE MODE');
    const restores = await this.store.readStream(RESTORE_STREAM, runner);
    const [marker] = await this.store.append(
      RESTORE_STREAM,
      restores.length ? restores[restores.length - 1].version : 0,
      [
        {
          type: RESTORE_MARKER,
          data: { users: users.length, cases: cases.length, by: actor.username },
        },
      ],
      metadata,
      runner,
    );
    await this.importUsers(runner, users, metadata);
    const imported = await this.caseImport.importCases(cases, actor, metadata.correlationId, runner);
    await this.deleteCasesNotIn(
      runner,
      cases.map((item) => item.id),
      metadata,
    );
    return { marker, cases: imported };
  }

  private async importUsers(
    runner: QueryRunner,
    users: ImportedUser[],
    metadata: EventMetadata,
  ): Promise<void> {
    const rows: Omit<UserViewRow, 'last_position'>[] = await runner.query(
      `SELECT username_key, username, role, email, activation_sound_enabled, notify_push, notify_email,
              password_hash, version, deleted
         FROM user_view`,
    );
    const current = new Map(rows.map((row) => [row.username_key, row]));
    for (const user of users) {
      const row = current.get(user.username.toLowerCase());
      await this.appendUserEvent(
        runner,
        row,
        user.username,
        { type: 'UserImported', data: { user } },
        metadata,
      );
    }
    // Everyone the backup lacks goes, except the default admin and the manager restoring.
    const restored = new Set(users.map((user) => user.username.toLowerCase()));
    const removed: string[] = [];
    for (const row of rows) {
      if (row.deleted || restored.has(row.username_key)) continue;
      if (isAdminUsername(row.username) || sameUsername(row.username, metadata.actor?.username)) continue;
      await this.appendUserEvent(runner, row, row.username, { type: 'UserDeleted', data: {} }, metadata);
      removed.push(row.username_key);
    }
    if (removed.length) {
      await runner.query('DELETE FROM sessions WHERE username_key = ANY($1::text[])', [removed]);
    }
  }

  private async appendUserEvent(
    runner: QueryRunner,
    row: Omit<UserViewRow, 'last_position'> | undefined,
    username: string,
    event: UserEventData,
    metadata: EventMetadata,
  ): Promise<void> {
    const [appended] = await this.store.append(
      userStreamId(username),
      row?.version ?? 0,
      [event],
      metadata,
      runner,
    );
    const state = evolveUser(row ? userStateOf(row) : null, event);
    await this.userProjection.apply(state, appended.position, runner);
  }

  private async deleteCasesNotIn(runner: QueryRunner, restored: string[], metadata: EventMetadata) {
    // Only the cases the backup lacks come back (not every live case, i.e. the whole import).
    const live: { id: string }[] = await runner.query(
      `SELECT id FROM case_view v
        WHERE NOT deleted AND NOT EXISTS (SELECT FROM unnest($1::text[]) AS r(id) WHERE r.id = v.id)`,
      [restored],
    );
    for (const { id } of live) {
      const streamId = caseStreamId(id);
      const state = foldCase((await this.store.readStream(streamId, runner)).map(toCaseEvent));
      if (!state || state.deleted) continue;
      const [deleted] = await this.store.append(
        streamId,
        state.version,
        [{ type: 'CaseDeleted', data: {} }],
        metadata,
        runner,
      );
      const next = evolve(state, toCaseEvent(deleted));
      await this.caseProjection.apply(next, deleted.position, runner, state);
      await applyReportRows(runner, next, undefined, [], deleted.position);
    }
  }

  /**
   * The whole log as NDJSON, oldest first in commit-safe order, read and written a batch at a
   * time (never the whole log in memory), waiting for the client to take each batch. Password
   * hashes are left out: no answer but the backup carries them.
   */
  async exportTo(response: ServerResponse): Promise<void> {
    let closed = false;
    response.on('close', () => (closed = true));
    try {
      let after: RecordedEvent | null = null;
      for (;;) {
        const events = await this.store.readAll(after, EXPORT_BATCH);
        if (closed) return;
        if (!events.length) break;
        // Each line carries its row as stored and its seal, for the offline check (audit/README.md).
        const stored = await storedRowsOf(
          this.dataSource,
          events.map((event) => event.position),
        );
        const lines =
          events
            .map((event) => JSON.stringify(withStoredRow(exportLine(event), stored.get(event.position))))
            .join('\n') + '\n';
        if (!response.write(lines)) await drained(response);
        after = events[events.length - 1];
        if (events.length < EXPORT_BATCH) break;
      }
      response.end();
    } catch (error) {
      this.logger.error(`The event export failed: ${(error as Error).message}`);
      response.destroy(error as Error);
    }
  }
}

function ms(milliseconds: number): string {
  return `${Math.round(milliseconds)} ms`;
}

async function withPasswordHash(user: BackupUser): Promise<ImportedUser> {
  const { username, role, email, activationSoundEnabled, notify } = user;
  const passwordHash = user.passwordHash ?? (await hashPassword(user.password!));
  return { username, role, email, activationSoundEnabled, ...(notify ? { notify } : {}), passwordHash };
}

const SECRET_KEYS = new Set(['password', 'passwordHash']);

/** An event as exported: everything but secrets, with the paths of what was left out. */
function exportLine(event: RecordedEvent): RecordedEvent & { redacted?: string[] } {
  const redacted: string[] = [];
  const data = withoutSecrets(event.data, 'data', redacted);
  return redacted.length ? { ...event, data, redacted } : event;
}

function withoutSecrets(value: unknown, path: string, redacted: string[]): unknown {
  if (Array.isArray(value))
    return value.map((item, index) => withoutSecrets(item, `${path}[${index}]`, redacted));
  if (!value || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_KEYS.has(key)) redacted.push(`${path}.${key}`);
    else result[key] = withoutSecrets(item, `${path}.${key}`, redacted);
  }
  return result;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
