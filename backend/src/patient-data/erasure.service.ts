import { Inject, Injectable } from '@nestjs/common';
import { CASE_ERASURE, caseStreamId, type Actor, type Case } from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import { CaseCommandService, type CommandOptions } from '../cases/case-command.service.js';
import { eraseNoteRows } from '../cases/projections/case-view.projection.js';
import { FILE_STORAGE, type FileStorage } from '../files/file-storage.js';
import { FILE_URL } from '../common/file-url.js';
import { withTransaction } from '../event-store/transactions.js';
import { CaseKeys } from '../event-store/encryption/case-keys.js';
import { EventStore } from '../event-store/event-store.js';
import { NOTIFICATION_QUEUE, type NotificationQueue } from '../notifications/queue/notification-queue.js';

/**
 * The right to erasure and file purges (api.md "Patient data"). Each is one event on the case's
 * command path, with side writes in the same transaction: the case's key and every read-model
 * text that could name the patient go with the event, or neither does. The files' bytes are
 * deleted after the commit (a file system is no part of the transaction); their rows go last, so
 * an erasure cut short by a crash is finished by asking again (decide answers an erased case with
 * no new event, and the clean-up runs anew).
 */
@Injectable()
export class ErasureService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cases: CaseCommandService,
    private readonly keys: CaseKeys,
    private readonly store: EventStore,
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    @Inject(NOTIFICATION_QUEUE) private readonly queue: NotificationQueue,
  ) {}

  async erase(caseId: string, reason: unknown, actor: Actor, options: CommandOptions): Promise<Case> {
    let runner: QueryRunner | undefined;
    let deliveries: string[] = [];
    const erased = await this.cases.execute(caseId, { type: 'EraseCase', reason }, actor, {
      ...options,
      beforeAppend: async (transaction) => {
        runner = transaction;
        deliveries = await scrubReadModels(transaction, caseId);
        await transaction.query('DELETE FROM case_keys WHERE case_id = $1', [caseId]);
      },
    });
    // No event (the case was erased before): the transaction above never ran; do its work again.
    if (!runner)
      deliveries = await withTransaction(this.dataSource, (transaction) =>
        scrubReadModels(transaction, caseId),
      );
    await this.keys.destroy(caseId);
    // The event store keeps this process's recent events in plaintext for the live stream.
    this.store.forgetOwnCommits(caseStreamId(caseId));
    // The queue keeps its jobs' messages (Redis, for days after they ran), as the deliveries did.
    await this.queue.eraseMessages(deliveries, CASE_ERASURE.erasedText);
    await this.deleteFiles(caseId);
    return erased;
  }

  async purge(
    caseId: string,
    url: unknown,
    reason: unknown,
    actor: Actor,
    options: CommandOptions,
  ): Promise<Case> {
    const id = typeof url === 'string' ? FILE_URL.exec(url)?.[1] : undefined;
    const purged = await this.cases.execute(caseId, { type: 'PurgeFile', url, reason }, actor, options);
    if (id) await this.deleteFiles(caseId, id);
    return purged;
  }

  /** The bytes of the case's stored files (or of one), then their rows: their URLs answer 404. */
  private async deleteFiles(caseId: string, uploadId?: string): Promise<void> {
    const rows: { id: string; storage_key: string }[] = await this.dataSource.query(
      `SELECT id, storage_key FROM uploads WHERE case_id = $1 ${uploadId ? 'AND id = $2' : ''}`,
      uploadId ? [caseId, uploadId] : [caseId],
    );
    for (const row of rows) await this.storage.remove(row.storage_key);
    if (rows.length)
      await this.dataSource.query('DELETE FROM uploads WHERE id = ANY($1::uuid[])', [
        rows.map((row) => row.id),
      ]);
  }
}

/**
 * The read models' copies of the erased texts that the case's new case_view row does not
 * replace: its notes' rows (author and time stay), the file names of its uploads, and the
 * messages of the notifications sent about it. Answers those notifications' ids (their jobs').
 */
async function scrubReadModels(runner: QueryRunner, caseId: string): Promise<string[]> {
  await eraseNoteRows(runner, [{ caseId, notes: null }]);
  await runner.query(`UPDATE uploads SET name = $2 WHERE case_id = $1`, [caseId, CASE_ERASURE.erasedText]);
  // The record of each notification sent about the case keeps its message (web push carries the
  // full words): its title and body go, who got it and when stay.
  const [deliveries]: [{ id: string }[], number] = await runner.query(
    `UPDATE notification_deliveries
        SET job = jsonb_set(jsonb_set(job, '{message,title}', to_jsonb($2::text)), '{message,body}', to_jsonb($2::text))
      WHERE job->'message'->>'caseId' = $1
      RETURNING id`,
    [caseId, CASE_ERASURE.erasedText],
  );
  return deliveries.map((delivery) => delivery.id);
}
