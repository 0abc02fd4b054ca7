import { Injectable } from '@nestjs/common';
import { caseStreamId, evolve, type Actor, type Case } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { EventStore } from '../event-store/event-store.js';
import { caseIdRows, caseRow, LIVE_TABLES, writeReadModelRows } from '../projections/read-model-replay.js';

const SYSTEM: Actor = { username: 'system', role: 'Manager' };

/**
 * Brings whole cases in (demo data, restore) as CaseImported events, reserving their ids.
 *
 * In bulk, in the caller's transaction: one read of the streams' versions, the events in
 * multi-row INSERTs (EventStore.appendMany, which checks the versions read), one read of their
 * positions, and the case_view and case_ids rows in one statement each — the rows
 * CaseViewProjection writes for a command, as the projection rebuild writes them. A few
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
  ): Promise<void> {
    if (!cases.length) return;
    const streamIds = cases.map((imported) => caseStreamId(imported.id));
    const versions: { stream_id: string; version: number }[] = await runner.query(
      `SELECT stream_id, max(stream_version) AS version FROM events
        WHERE stream_id = ANY($1::text[]) GROUP BY stream_id`,
      [streamIds],
    );
    const versionOf = new Map(versions.map((row) => [row.stream_id, row.version]));
    const expected = streamIds.map((streamId) => versionOf.get(streamId) ?? 0);
    await this.store.appendMany(
      cases.map((imported, index) => ({
        streamId: streamIds[index],
        expectedVersion: expected[index],
        events: [{ type: 'CaseImported', data: { case: imported } }],
      })),
      { actor, correlationId },
      runner,
    );
    const appended: { position: string }[] = await runner.query(
      `SELECT e.global_position::text AS position
         FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS k(stream_id, version, n)
         JOIN events e ON e.stream_id = k.stream_id AND e.stream_version = k.version
        ORDER BY k.n`,
      [streamIds, expected.map((version) => version + 1)],
    );
    const rows = cases.map((imported, index) => {
      // The state a command's projection would write: evolve's, at the stream's new version.
      const state = evolve(null, {
        type: 'CaseImported',
        data: { case: imported },
        actor: actor ?? SYSTEM,
        at: new Date().toISOString(),
      });
      return caseRow({
        state: { ...state, version: expected[index] + 1 },
        position: appended[index].position,
      });
    });
    await writeReadModelRows(runner, LIVE_TABLES, {
      cases: rows,
      users: [],
      caseIds: cases.flatMap((imported) => caseIdRows(imported.id)),
    });
  }
}
