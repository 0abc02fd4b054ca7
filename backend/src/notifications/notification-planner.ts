import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ALERTING_CASE_EVENTS,
  alertsFor,
  caseLink,
  evolve,
  INVOICE_STREAM_PREFIX,
  invoiceAlertsFor,
  isInAudience,
  parseRole,
  type Alert,
  type Case,
  type Role,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { toCaseEvent } from '../cases/case-events.js';
import { EventStore, type RecordedEvent } from '../event-store/event-store.js';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../config/notifications.config.js';
import { NotificationStore } from './notification-store.js';
import type {
  Channel,
  NotificationJob,
  NotificationMessage,
  PushChannel,
} from './queue/notification-queue.js';

const CASE_STREAM = 'case-';

interface Recipient {
  key: string;
  username: string;
  role: Role;
  email: string | null;
  notifyPush: boolean;
  notifyEmail: boolean;
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
    const states = caseEvents.length ? await this.statesAfter(caseEvents) : new Map<string, Case>();

    // An email and an FCM message leave the lab's systems readable: their alerts name the patient
    // by initials only and carry no free text (alertsFor's 'initials'). Web push is encrypted to
    // the user's browser and keeps the full words, like the live stream.
    const wanted: { event: RecordedEvent; alerts: { alert: Alert; emailAlert: Alert }[] }[] = [];
    for (const event of caseEvents) {
      const state = states.get(event.position);
      if (!state) continue;
      try {
        const recorded = toCaseEvent(event);
        const full = alertsFor(recorded, state);
        const initials = alertsFor(recorded, state, 'initials');
        const alerts = full.map((alert, index) => ({ alert, emailAlert: initials[index] ?? alert }));
        if (alerts.length) wanted.push({ event, alerts });
      } catch (error) {
        // One unreadable event must not stop every notification after it.
        this.logger.error(
          `No notification for event ${event.position} (${event.type}): ${(error as Error).message}`,
        );
      }
    }
    // Billing's alerts (the overdue reminder) name no patient: the same alert goes by email.
    for (const event of events) {
      if (!event.streamId.startsWith(INVOICE_STREAM_PREFIX)) continue;
      const alerts = invoiceAlertsFor(event.type, event.data);
      if (alerts.length)
        wanted.push({ event, alerts: alerts.map((alert) => ({ alert, emailAlert: alert })) });
    }
    if (wanted.length === 0) return [];

    const users = await this.activeUsers();
    const audiences = wanted.map(({ event, alerts }) => ({
      event,
      deliveries: alerts.flatMap(({ alert, emailAlert }) =>
        users
          .filter((user) => isInAudience(alert.audience, user))
          .map((user) => ({ alert, emailAlert, user })),
      ),
    }));
    const devices = await this.notifications.devicesOf(
      audiences.flatMap(({ deliveries }) =>
        deliveries.filter(({ user }) => user.notifyPush).map(({ user }) => user.key),
      ),
    );
    const pushChannels: PushChannel[] = this.config.fcm ? ['webpush', 'fcm'] : ['webpush'];
    const email = this.config.email;

    const jobs = new Map<string, NotificationJob>();
    const add = (event: RecordedEvent, user: Recipient, channel: Channel, message: NotificationMessage) => {
      const id = eventJobId(event.position, user.key, channel);
      if (jobs.has(id)) return; // two alerts of one event for one person: one notification
      jobs.set(id, { id, channel, username: user.username, message, eventPosition: event.position });
    };
    for (const { event, deliveries } of audiences) {
      for (const { alert, emailAlert, user } of deliveries) {
        // A user who turned a channel off gets no job on it (users choose: api.md, Reach and insight).
        if (user.notifyPush) {
          for (const channel of pushChannels) {
            if (!devices.get(user.key)?.[channel]) continue;
            const sent = channel === 'fcm' ? emailAlert : alert;
            add(event, user, channel, this.message(sent.title, sent.body, sent.caseId));
          }
        }
        if (email && user.notifyEmail && user.email) {
          add(event, user, 'email', {
            title: emailAlert.title,
            body: emailAlert.body,
            caseId: emailAlert.caseId,
            url: caseLink(email.publicUrl, emailAlert.caseId),
            icon: '',
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
    const rows: {
      username_key: string;
      username: string;
      role: string;
      email: string | null;
      notify_push: boolean;
      notify_email: boolean;
    }[] = await this.dataSource.query(
      'SELECT username_key, username, role, email, notify_push, notify_email FROM user_view WHERE NOT deleted',
    );
    return rows.flatMap((row) => {
      const role = parseRole(row.role);
      return role
        ? [
            {
              key: row.username_key,
              username: row.username,
              role,
              email: row.email,
              notifyPush: row.notify_push,
              notifyEmail: row.notify_email,
            },
          ]
        : [];
    });
  }
}

/** BullMQ ids may not contain ':'; usernames are URI-encoded to be safe with any stored name. */
export function eventJobId(position: string, usernameKey: string, channel: Channel): string {
  return `ev${position}-${channel}-${encodeURIComponent(usernameKey.toLowerCase())}`;
}
