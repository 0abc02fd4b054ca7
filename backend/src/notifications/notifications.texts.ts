/** Every text the notification endpoints answer with (spec sections 5 and 8, api.md's Push table). */
export const NOTIFICATION_TEXTS = {
  bodyRequired: 'Please enter a message body.',
  fcmNotConfigured: 'FCM is not configured.',
  managersOnly: 'Only managers can send notifications.',
  managersOnlyDeliveries: 'Only managers can see notification deliveries.',
  subscribeSelfOnly: 'You can only subscribe your own devices.',
  invalidKeys: 'The push subscription keys are invalid.',
  tokenRequired: 'Please provide an FCM token.',
  noSubscription: (username: string) => `${username} has no device subscribed to web push.`,
  noFcmToken: (username: string) => `${username} has no FCM token.`,
  queueUnavailable: 'Notifications cannot be queued right now. Try again shortly.',
} as const;
