import { Injectable } from '@nestjs/common';
import { caseStreamId, evolve, type Actor, type Case } from '@alignerflow/domain';
import type { QueryRunner } from 'typeorm';
import { EventStore } from '../event-store/event-store.js';
import { toCaseEvent } from './case-events.js';
import { CaseViewProjection } from './projections/case-view.projection.js';

/** Brings whole cases in (demo data, restore) as CaseImported events, reserving their ids. */
@Injectable()
export class CaseImportService {
  constructor(
    private readonly store: EventStore,
    private readonly projection: CaseViewProjection,
  ) {}

  async importCases(
    cases: Omit<Case, 'version'>[],
    actor: Actor | null,
    correlationId: string,
    runner: QueryRunner,
  ) {
    for (const imported of cases) {
      const streamId = caseStreamId(imported.id);
      const current = await this.store.readStream(streamId, runner);
      const [event] = await this.store.append(
        streamId,
        current.length ? current[current.length - 1].version : 0,
        [{ type: 'CaseImported', data: { case: imported } }],
        { actor, correlationId },
        runner,
      );
      const state = evolve(null, toCaseEvent(event));
      await this.projection.apply({ ...state, version: event.version }, event.position, runner);
      const match = /^CA-(\d{4})-(\d+)$/.exec(imported.id);
      if (match) {
        await runner.query(
          'INSERT INTO case_ids (id, year, suffix) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          [imported.id, Number(match[1]), Number(match[2])],
        );
      }
    }
  }
}
