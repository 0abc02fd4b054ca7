/** Per-user limits (api.md, "Patient data"): what one account, or a stolen session of it, can do. */
export const USER_LIMITS = {
  /** Bytes one user may upload in a day (the server's calendar day). */
  uploadBytesPerDay: 2 * 1024 ** 3,
  /** New cases one user may create in an hour. */
  casesPerHour: 200,
  /** Open sessions per user: a new sign-in past this ends the oldest. */
  sessionsPerUser: 20,
  /** FCM tokens per user: a new one past this replaces the oldest. */
  fcmTokensPerUser: 10,
} as const;

export const LIMIT_TEXTS = {
  reached: (what: string) => `Limit reached: ${what}. Try again later.`,
  uploads: '2 GB of uploads a day',
  cases: `${USER_LIMITS.casesPerHour} new cases an hour`,
} as const;
