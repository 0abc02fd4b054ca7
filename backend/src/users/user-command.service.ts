import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import {
  decideUser,
  evolveUser,
  userStreamId,
  type Actor,
  type UserCommand,
  type UserEventData,
  type UserState,
} from '@alignerflow/domain';
import { DataSource, type QueryRunner } from 'typeorm';
import { DomainRejection } from '../common/domain-rejection.js';
import { EVENTS_COMMITTED, type EventsCommitted } from '../event-store/log-listener.js';
import {
  EventStore,
  lockStream,
  withTransaction,
  WrongExpectedVersionError,
  type RecordedEvent,
} from '../event-store/event-store.js';
import { UserViewProjection } from './user-view.projection.js';

/** Users are event-sourced like cases: load the stream, decide, append, project in one transaction. */
@Injectable()
export class UserCommandService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly projection: UserViewProjection,
    private readonly emitter: EventEmitter2,
  ) {}

  async execute(
    username: string,
    command: UserCommand,
    actor: Actor | null,
    correlationId: string,
  ): Promise<UserState> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { state, events } = await withTransaction(this.dataSource, (runner) =>
          this.decideAndAppend(username, command, actor, correlationId, runner),
        );
        if (events.length) this.emitter.emit(EVENTS_COMMITTED, { events } satisfies EventsCommitted);
        return state;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= 5) throw error;
      }
    }
  }

  private async decideAndAppend(
    username: string,
    command: UserCommand,
    actor: Actor | null,
    correlationId: string,
    runner: QueryRunner,
  ) {
    const streamId = userStreamId(username);
    await lockStream(runner, streamId);
    const history = await this.store.readStream(streamId, runner);
    const state = history.reduce<UserState | null>(
      (current, event) => evolveUser(current, event as unknown as UserEventData),
      null,
    );
    const decision = decideUser(state, command, actor, username);
    if (!decision.ok) throw new DomainRejection(decision.rejection);
    if (!decision.events.length) return { state: state!, events: [] as RecordedEvent[] };
    const appended = await this.store.append(
      streamId,
      state?.version ?? 0,
      decision.events,
      { actor, correlationId },
      runner,
    );
    const next = decision.events.reduce<UserState | null>(evolveUser, state)!;
    await this.projection.apply(next, appended[appended.length - 1].position, runner);
    return { state: next, events: appended };
  }
}
