/** api.md's Push table, and the alerts of the live stream `GET /events`. */
import type { RiskKind } from '../case/events.js';

/** `GET /push/vapid-public-key` (no sign-in): the key the browser subscribes with. */
export interface VapidKeyAnswer {
  publicKey: string;
}

/** `POST /push/test`, `/push/send/{username}` and `/fcm/send/{username}`'s body (send: `body` required). */
export interface NotificationMessageBody {
  title?: string;
  body?: string;
}

/** `POST /push/test`, `/push/send/{username}`, `/fcm/send/{username}`: 202, the deliveries queued. */
export interface QueuedAnswer {
  queued: number;
}

/** `GET /events`: a `manager_alert`'s data (`kind` when at risk) or a `doctor_alert`'s (`doctor` named). */
export interface LiveAlert {
  title: string;
  body: string;
  caseId: string;
  doctor?: string;
  kind?: RiskKind;
}

/**
 * A Web Push message's JSON, as the service worker receives it (FCM carries the same fields):
 * what the notification says and where a click on it leads.
 */
export interface PushMessage {
  title: string;
  body: string;
  caseId: string | null;
  /** Where a click on the notification leads, under the app base path (an email: the full URL). */
  url: string;
  icon: string;
}
