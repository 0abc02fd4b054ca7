import { Injectable } from '@nestjs/common';
import { caseStreamId, type Actor, type Case } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { EventStore, type StreamEvents } from '../event-store/event-store.js';
import {
  caseIdRows,
  caseRow,
  LIVE_TABLES,
  noteRows,
  writeReadModelRows,
} from '../rebuild/read-model-rows.js';
import { reportCaseRow } from '../reports/report-rows.projection.js';

/** What an import did, for the restore's log line and the bulk-import benchmark. */
export interface CaseImportReport {
  /** CaseImported events appended: one per case. */
  events: number;
  /** Wall time of the bulk append (EventStore.appendMany): building its statements included. */
  appendMs: number;
  /** Wall time of the whole import: version read, append, positions, read-model rows. */
  totalMs: number;
}

/**
 * The events an import of `cases` appends, one CaseImported per case: known before the import's
 * transaction opens, so that it opens with their keys made (EventStore.withTransactionFor).
 */
export function caseImportEvents(cases: Omit<Case, 'version'>[]): StreamEvents[] {
  return cases.map((imported) => ({
    streamId: caseStreamId(imported.id),
    events: [{ type: 'CaseImported', data: { case: imported } }],
  }));
}

/**
 * Brings whole cases in (demo data, restore) as CaseImported events, reserving their ids.
 *
 * In bulk, in the caller's transaction: one read of the streams' versions, the events in a few
 * large INSERTs (EventStore.appendMany, which checks the versions read), one read of their
 * positions, and the rows of every read model in one statement per table — each read model's
 * own definition, as a command's append and the projection rebuild write them. A few
 * statements however many cases, where one round trip per case made a restore of 100,000 cases
 * take minutes.
 */
@Injectable()
export class CaseImportService {
  constructor(private readonly store: EventStore) {}

  async importCases(
    cases: Omit<Case, 'version'>[],
    actor: Actor | null,
    correlationId: string,
    runner: QueryRunner,
  ): Promise<CaseImportReport> {
    const started = performance.now();
    if (!cases.length) return { events: 0, appendMs: 0, totalMs: 0 };
    const imports = caseImportEvents(cases);
    const streamIds = imports.map(({ streamId }) => streamId);
    const versions: { stream_id: string; version: number }[] = await runner.query(
      `SELECT stream_id, max(stream_version) AS version FROM events
        WHERE stream_id = ANY($1::text[]) GROUP BY stream_id`,
      [streamIds],
    );
    const versionOf = new Map(versions.map((row) => [row.stream_id, row.version]));
    const expected = streamIds.map((streamId) => versionOf.get(streamId) ?? 0);
    const appendStarted = performance.now();
    const events = await this.store.appendMany(
      imports.map((entry, index) => ({ ...entry, expectedVersion: expected[index] })),
      { actor, correlationId },
      runner,
    );
    const appendMs = performance.now() - appendStarted;
    const appended: { position: string }[] = await runner.query(
      `SELECT e.global_position::text AS position
         FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS k(stream_id, version, n)
         JOIN events e ON e.stream_id = k.stream_id AND e.stream_version = k.version
        ORDER BY k.n`,
      [streamIds, expected.map((version) => version + 1)],
    );
    // The state evolve gives for CaseImported: the imported case at the stream's new version.
    // evolve deep-copies the case to stay pure (a third of the import's Node time); the row is
    // only serialised here, so a shallow copy does. test/backup.e2e.ts checks that a rebuild by
    // replay (evolve) writes exactly these rows.
    const entries = cases.map((imported, index) => ({
      state: { ...imported, version: expected[index] + 1 },
      position: appended[index].position,
    }));
    await writeReadModelRows(runner, LIVE_TABLES, {
      cases: entries.map(caseRow),
      // A restored case replaces whatever notes rows a case of that id had.
      notes: entries.flatMap((entry) => noteRows(entry)),
      notesReplaced: cases.map((imported) => imported.id),
      // An erased case comes with its notes erased, and they replace its rows.
      notesErased: [],
      users: [],
      caseIds: cases.flatMap((imported) => caseIdRows(imported.id)),
      // A restored case counts in the reports with what it carries, and no stage rows.
      reports: {
        cases: entries.map((entry) => reportCaseRow(entry.state as Case, null, entry.position)),
        intervals: [],
        intervalsReplaced: cases.map((imported) => imported.id),
      },
    });
    return { events, appendMs, totalMs: performance.now() - started };
  }
}
