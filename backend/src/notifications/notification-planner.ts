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
  RESTORE_MARKER,
  type Alert,
  type Case,
  type Role,
} from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { toCaseEvent } from '../cases/case-events.js';
import {
  CASE_VIEW_ROW_COLUMNS,
  CaseViewProjection,
  type CaseViewRow,
} from '../cases/projections/case-view.projection.js';
import { EventStore, type RecordedEvent } from '../event-store/event-store.js';
import { NOTIFICATIONS_CONFIG, type NotificationsConfig } from '../config/notifications.config.js';
import { CaseStateCache } from './case-state-cache.js';
import { NotificationStore } from './notification-store.js';
import type {
  Channel,
  NotificationJob,
  NotificationMessage,
  PushChannel,
} from './queue/notification-queue.js';

const CASE_STREAM = 'case-';
const USER_STREAM = 'user-';

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
 * Between batches it keeps in memory the cases and the users it needs, for one dispatcher's term
 * (see statesAfter and plan; the dispatcher calls reset).
 */
@Injectable()
export class NotificationPlanner {
  private readonly logger = new Logger('NotificationPlanner');
  /** The cases as the events handed over so far left them (see statesAfter). */
  private readonly cases = new CaseStateCache();
  /** The active users, read again after a user event or a restore passed (see plan). */
  private users: Recipient[] | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EventStore,
    private readonly notifications: NotificationStore,
    @Inject(NOTIFICATIONS_CONFIG) private readonly config: NotificationsConfig,
  ) {}

  /**
   * Forgets every case and the users: the dispatcher calls it when it (re)gains its lock or reads
   * again from a checkpoint other than where the last batch planned ended.
   */
  reset(): void {
    this.cases.clear();
    this.users = undefined;
  }

  /**
   * The jobs of `events`, a batch of the log in commit-safe order. The dispatcher hands over every
   * event it reads, not only those that alert: the case states held in memory follow them all.
   */
  async plan(events: RecordedEvent[]): Promise<NotificationJob[]> {
    // user_view is written in the same transaction as each user event, so once the dispatcher has
    // read one, reading user_view again sees it. A restore changes users wholesale.
    if (events.some((event) => event.streamId.startsWith(USER_STREAM) || event.type === RESTORE_MARKER))
      this.users = undefined;
    const states = await this.statesAfter(events);
    const caseEvents = events.filter(
      (event) => event.streamId.startsWith(CASE_STREAM) && ALERTING_CASE_EVENTS.has(event.type),
    );

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

    const users = (this.users ??= await this.activeUsers());
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
   * The case as it was right after each alerting event of `events`, by position. The planner keeps
   * each case's state at its latest version in memory (CaseStateCache) and moves it on with the
   * domain's evolve for every event of the case that the dispatcher hands it, so the state after
   * an event is usually known without a read. Where memory cannot follow (a case not held, or held
   * at another version, or an event evolve refuses), it falls back: the read model when the event
   * is still the case's latest version, else the stream folded up to the event, from the version
   * held when that is behind, or from the start.
   */
  private async statesAfter(events: RecordedEvent[]): Promise<Map<string, Case>> {
    const byCase = new Map<string, RecordedEvent[]>();
    for (const event of events) {
      if (!event.streamId.startsWith(CASE_STREAM)) continue;
      const caseId = event.streamId.slice(CASE_STREAM.length);
      const caseEvents = byCase.get(caseId);
      if (caseEvents) caseEvents.push(event);
      else byCase.set(caseId, [event]);
    }
    const states = new Map<string, Case>();
    const unfollowed = new Map<string, { events: RecordedEvent[]; behind: Case | null }>();
    for (const [caseId, caseEvents] of byCase) {
      const left = this.follow(caseId, caseEvents, states);
      // Events nobody is told of need no state: the case is simply no longer held.
      if (left && left.events.some((event) => ALERTING_CASE_EVENTS.has(event.type)))
        unfollowed.set(caseId, left);
    }
    await this.forgetErased(byCase, states, unfollowed);
    if (unfollowed.size) await this.catchUp(unfollowed, states);
    return states;
  }

  /**
   * A case erased after an alerting event, while this dispatcher had not reached the event yet,
   * must not be named from memory: erasure deletes the case's key (patient-data/erasure.service.ts)
   * and scrubs its read-model row, and a case without its key is read as before — the row, or the
   * stream, whose patient fields then read as erased. One look-up per batch that alerts.
   */
  private async forgetErased(
    byCase: Map<string, RecordedEvent[]>,
    states: Map<string, Case>,
    unfollowed: Map<string, { events: RecordedEvent[]; behind: Case | null }>,
  ): Promise<void> {
    const fromMemory = [...byCase].filter(
      ([caseId, events]) => !unfollowed.has(caseId) && events.some((event) => states.has(event.position)),
    );
    if (!fromMemory.length) return;
    const keyed: { case_id: string }[] = await this.dataSource.query(
      'SELECT case_id FROM case_keys WHERE case_id = ANY($1::text[])',
      [fromMemory.map(([caseId]) => caseId)],
    );
    const withKey = new Set(keyed.map((row) => row.case_id));
    for (const [caseId, events] of fromMemory) {
      if (withKey.has(caseId)) continue;
      this.cases.delete(caseId);
      for (const event of events) states.delete(event.position);
      unfollowed.set(caseId, { events, behind: null });
    }
  }

  /**
   * Moves the case's state held in memory along its events of the batch (a stream's events come
   * in version order and without gaps). Returns the events from the first it could not follow,
   * with the state held if that is behind them; the case is then no longer held.
   */
  private follow(
    caseId: string,
    events: RecordedEvent[],
    states: Map<string, Case>,
  ): { events: RecordedEvent[]; behind: Case | null } | undefined {
    let state = this.cases.get(caseId);
    for (const [index, event] of events.entries()) {
      // A stream's first event needs no state before it; any other, the state just before it.
      const before = event.version === 1 ? null : state?.version === event.version - 1 ? state : undefined;
      let after: Case | undefined;
      if (before !== undefined) {
        try {
          after = evolve(before, toCaseEvent(event));
        } catch {
          // Left to the fallback, which does what the planner did before it kept cases.
        }
      }
      if (after?.version !== event.version) {
        this.cases.delete(caseId);
        const behind = state && state.version < event.version - 1 ? state : null;
        return { events: events.slice(index), behind };
      }
      state = after;
      if (ALERTING_CASE_EVENTS.has(event.type)) states.set(event.position, state);
    }
    if (state) this.cases.set(caseId, state);
    return undefined;
  }

  /**
   * The states after the alerting events memory could not follow (`unfollowed`, per case), as
   * the planner read them before it kept cases: case_view when the event is the case's version
   * there, else the stream folded with evolve, all such streams in one read. The case is then held
   * at the version of its last event of the batch.
   */
  private async catchUp(
    unfollowed: Map<string, { events: RecordedEvent[]; behind: Case | null }>,
    states: Map<string, Case>,
  ): Promise<void> {
    const rows: (CaseViewRow & { id: string })[] = await this.dataSource.query(
      `SELECT id, ${CASE_VIEW_ROW_COLUMNS} FROM case_view WHERE id = ANY($1)`,
      [[...unfollowed.keys()]],
    );
    const views = new Map(rows.map((row) => [row.id, row]));

    const toFold: { caseId: string; events: RecordedEvent[]; from: Case | null }[] = [];
    for (const [caseId, { events, behind }] of unfollowed) {
      const view = views.get(caseId);
      const last = events[events.length - 1];
      const alerting = events.filter((event) => ALERTING_CASE_EVENTS.has(event.type));
      // The view is at most at the batch's last event of the case: it may stand for that one only.
      if (view && view.version === last.version && alerting.length === 1 && alerting[0] === last) {
        const state = CaseViewProjection.toCase(view);
        states.set(last.position, state);
        this.cases.set(caseId, state);
      } else {
        toFold.push({ caseId, events, from: behind });
      }
    }
    if (!toFold.length) return;

    const streams = await this.store.readStreamsAfter(
      toFold.map(({ caseId, from }) => ({ streamId: CASE_STREAM + caseId, version: from?.version ?? 0 })),
    );
    const byStream = new Map<string, RecordedEvent[]>();
    for (const recorded of streams) {
      const streamEvents = byStream.get(recorded.streamId);
      if (streamEvents) streamEvents.push(recorded);
      else byStream.set(recorded.streamId, [recorded]);
    }
    for (const { caseId, events, from } of toFold) {
      const upTo = events[events.length - 1].version;
      const wanted = new Map(
        events
          .filter((event) => ALERTING_CASE_EVENTS.has(event.type))
          .map((event) => [event.version, event.position]),
      );
      let state = from;
      for (const recorded of byStream.get(CASE_STREAM + caseId) ?? []) {
        if (recorded.version > upTo) break;
        state = evolve(state, toCaseEvent(recorded));
        const position = wanted.get(recorded.version);
        if (position) states.set(position, state);
      }
      if (state?.version === upTo) this.cases.set(caseId, state);
    }
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
