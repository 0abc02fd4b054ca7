/**
 * Rules of web push subscriptions (api.md, Security): where the server may be made to send, and
 * how many browsers one user may keep subscribed.
 */

/** A user's subscriptions beyond this many push out their oldest: a browser re-subscribing is cheap, a list without end is not. */
export const PUSH_SUBSCRIPTIONS_PER_USER = 10;

export const PUSH_SUBSCRIPTION_TEXTS = {
  /** An endpoint that is not `https://` on a public address (and not one the operator listed). */
  endpointNotAllowed: 'Push endpoint not allowed.',
} as const;
