import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ALERTING_CASE_EVENTS,
  alertsFor,
  evolve,
  isInAudience,
  parseRole,
  type Case,
  type Role,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { toCaseEvent } from '../cases/case-events.js';
import { EventStore, type RecordedEvent } from '../event-store/event-store.js';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from './notifications.config.js';
import { NotificationStore } from './notification-store.js';
import type { Channel, NotificationJob, NotificationMessage } from './queue/notification-queue.js';

const CASE_STREAM = 'case-';

interface Recipient {
  key: string;
  username: string;
  role: Role;
}

/**
 * Turns events into notification jobs by the product's policy (`alertsFor` of libs/domain, the
 * same source as the live stream's alerts): one job per recipient and channel, only where the
 * recipient has a device on that channel, with ids derived from (event position, recipient, channel).
 */
@Injectable()
export class NotificationPlanner {
  private readonly logger = new Logger('NotificationPlanner');

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly notifications: NotificationStore,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  async plan(events: RecordedEvent[]): Promise<NotificationJob[]> {
    // Only events that may alert need the case's state, which can cost a fold of its stream.
    const caseEvents = events.filter(
      (event) => event.streamId.startsWith(CASE_STREAM) && ALERTING_CASE_EVENTS.has(event.type),
    );
    if (caseEvents.length === 0) return [];
    const states = await this.statesAfter(caseEvents);

    const wanted: { event: RecordedEvent; alerts: ReturnType<typeof alertsFor> }[] = [];
    for (const event of caseEvents) {
      const state = states.get(event.position);
      if (!state) continue;
      try {
        const alerts = alertsFor(toCaseEvent(event), state);
        if (alerts.length) wanted.push({ event, alerts });
      } catch (error) {
        // One unreadable event must not stop every notification after it.
        this.logger.error(
          `No notification for event ${event.position} (${event.type}): ${(error as Error).message}`,
        );
      }
    }
    if (wanted.length === 0) return [];

    const users = await this.activeUsers();
    const audiences = wanted.map(({ event, alerts }) => ({
      event,
      deliveries: alerts.flatMap((alert) =>
        users.filter((user) => isInAudience(alert.audience, user)).map((user) => ({ alert, user })),
      ),
    }));
    const devices = await this.notifications.devicesOf(
      audiences.flatMap(({ deliveries }) => deliveries.map(({ user }) => user.key)),
    );
    const channels: Channel[] = this.config.fcm ? ['webpush', 'fcm'] : ['webpush'];

    const jobs = new Map<string, NotificationJob>();
    for (const { event, deliveries } of audiences) {
      for (const { alert, user } of deliveries) {
        for (const channel of channels) {
          if (!devices.get(user.key)?.[channel]) continue;
          const id = eventJobId(event.position, user.key, channel);
          if (jobs.has(id)) continue; // two alerts of one event for one person: one notification
          jobs.set(id, {
            id,
            channel,
            username: user.username,
            message: this.message(alert.title, alert.body, alert.caseId),
            eventPosition: event.position,
          });
        }
      }
    }
    return [...jobs.values()];
  }

  message(title: string, body: string, caseId: string | null): NotificationMessage {
    const base = this.config.basePath;
    return {
      title,
      body,
      caseId,
      url: caseId ? `${base}?case=${encodeURIComponent(caseId)}` : base,
      icon: `${base}icons/icon-192.png`,
    };
  }

  /**
   * The case as it was right after each event. The read model has it when the event is still the
   * case's latest (the usual case: the dispatcher follows closely); otherwise the stream is folded
   * up to the event with the domain's evolve.
   */
  private async statesAfter(events: RecordedEvent[]): Promise<Map<string, Case>> {
    const ids = [...new Set(events.map((event) => event.streamId.slice(CASE_STREAM.length)))];
    const rows: { id: string; version: number; data: Omit<Case, 'version'>; deleted: boolean }[] =
      await this.dataSource.query('SELECT id, version, data, deleted FROM case_view WHERE id = ANY($1)', [
        ids,
      ]);
    const views = new Map(rows.map((row) => [row.id, row]));

    const states = new Map<string, Case>();
    const toFold = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      const view = views.get(event.streamId.slice(CASE_STREAM.length));
      if (view && view.version === event.version) {
        states.set(event.position, { ...view.data, version: view.version, deleted: view.deleted });
      } else {
        toFold.set(event.streamId, [...(toFold.get(event.streamId) ?? []), event]);
      }
    }
    for (const [streamId, wantedEvents] of toFold) {
      const upTo = Math.max(...wantedEvents.map((event) => event.version));
      const byVersion = new Map(wantedEvents.map((event) => [event.version, event.position]));
      let state: Case | null = null;
      for (const recorded of await this.store.readStream(streamId)) {
        if (recorded.version > upTo) break;
        state = evolve(state, toCaseEvent(recorded));
        const position = byVersion.get(recorded.version);
        if (position) states.set(position, state);
      }
    }
    return states;
  }

  private async activeUsers(): Promise<Recipient[]> {
    const rows: { username_key: string; username: string; role: string }[] = await this.dataSource.query(
      'SELECT username_key, username, role FROM user_view WHERE NOT deleted',
    );
    return rows.flatMap((row) => {
      const role = parseRole(row.role);
      return role ? [{ key: row.username_key, username: row.username, role }] : [];
    });
  }
}

/** BullMQ ids may not contain ':'; usernames are URI-encoded to be safe with any stored name. */
export function eventJobId(position: string, usernameKey: string, channel: Channel): string {
  return `ev${position}-${channel}-${encodeURIComponent(usernameKey.toLowerCase())}`;
}
