import { PASSWORD_MIN_LENGTH, USER_TEXTS } from '@alignerflow/domain';
import { API_BASE } from '../../api/client';

export type SettingsSection = 'users' | 'backup' | 'notifications' | 'access' | 'account';

/** Texts of the settings panel (spec sections 2, 5 and 8). */
export const SETTINGS_TEXTS = {
  title: 'Settings',
  summary: 'Summary',
  sections: {
    users: 'User Management',
    backup: 'Backup & Restore',
    notifications: 'Notifications',
    access: 'Access log',
    account: 'My Account',
  },
  close: 'Close',
  loading: 'Loading...',

  // User Management
  addUser: 'Add New User',
  username: 'Username',
  password: 'Password',
  role: 'Role',
  addUserButton: 'Add User',
  existingUsers: 'Existing Users',
  deleteUser: (name: string) => `Delete user ${name}`,
  cannotDeleteAdmin: 'Cannot delete admin',
  emptyCredentials: USER_TEXTS.emptyCredentials,
  taken: USER_TEXTS.taken,
  addFailed: 'Failed to add user. Username may already exist.',
  deleteFailed: 'Failed to delete user. Please try again.',
  adminUndeletable: USER_TEXTS.adminUndeletable,
  confirmDeleteUser: (name: string) =>
    `Are you sure you want to delete the user "${name}"? This action cannot be undone.`,
  userAdded: 'User Added',
  userAddedText: (name: string, role: string) => `${name} (${role}) can now sign in.`,
  userDeleted: 'User Deleted',
  userDeletedText: (name: string) => `${name} has been removed.`,
  noUsers: 'No users loaded.',
  endSessions: (name: string) => `End sessions of ${name}`,
  confirmEndSessions: (name: string) => `Sign "${name}" out on every device?`,
  sessionsEnded: 'Sessions Ended',
  sessionsEndedText: (name: string) => `${name} has been signed out everywhere.`,
  endSessionsFailed: 'Failed to end the sessions. Please try again.',

  // My Account (every signed-in user)
  changePassword: 'Change Password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  changePasswordButton: 'Change Password',
  passwordMinimumHint: `At least ${PASSWORD_MIN_LENGTH} characters. Your other devices will be signed out.`,
  currentPasswordRequired: USER_TEXTS.currentPasswordWrong,
  passwordChanged: 'Password Changed',
  passwordChangedText: 'Your other sessions have been signed out.',
  changePasswordFailed: 'Failed to change the password. Please try again.',
  signOutEverywhere: 'Sign Out Everywhere',
  signOutEverywhereHint: 'Ends your sessions on every device and browser, this one included.',
  confirmSignOutEverywhere: 'Sign out on every device, this one included?',
  signOutEverywhereFailed: 'Failed to sign out everywhere. Please try again.',

  // Backup & Restore
  systemBackup: 'System Backup',
  systemBackupHint: 'Download all users and cases as a JSON file.',
  exportBackup: 'Export Backup (.json)',
  exportFailed: 'Export failed',
  restoreFromBackup: 'Restore from Backup',
  restoreHint:
    'Restoring replaces the current users and cases; the history before it stays in the event log.',
  backupFile: 'Backup file (.json)',
  importBackup: 'Import Backup (.json)',
  confirmRestore: 'Are you sure you want to restore from this backup? All current data will be overwritten.',
  unreadableFile: 'File could not be read.',
  restoreFailed: 'Failed to restore backup. Please try again.',
  restoreComplete: 'Restore Complete',
  restoreCompleteText: 'System data has been restored from backup.',

  // Notifications
  sendTest: 'Send Test Notification',
  sendTestHint: 'Sends a push notification to every subscribed device of this lab.',
  testSent:
    'Test notification sent. If you do not see it, ensure permissions are allowed and Focus Assist is off.',
  testFailed: (message: string) =>
    `Failed to send test notification. ${message} Check ${API_BASE}/health and that the push (VAPID) keys are configured.`,
  targeted: 'Targeted Notification',
  title_: 'Title',
  message: 'Message',
  sendWebPush: 'Send Targeted Web Push',
  sendFcm: 'Send Targeted FCM',
  usernameRequired: 'Please enter a username to send to.',
  bodyRequired: 'Please enter a message body.',
  sentWebPush: (user: string) => `Sent Web Push to ${user}...`,
  sentFcm: (user: string) => `Sent FCM to ${user}...`,
  webPushFailed: 'Failed to send targeted Web Push. Check backend and that user is subscribed.',
  fcmFailed: 'Failed to send FCM notification. Check backend credentials and that user has an FCM token.',
  soundPreference: 'Activation Sound Preference',
  enabled: 'Enabled',
  disabled: 'Disabled',
  sound: 'Activation sound',
  savePreference: 'Save Preference',
  selectUser: 'Please select a user to update.',
  chooseUser: 'Select a user',
  preferenceUpdated: (user: string) => `Preference updated for ${user}.`,
  preferenceFailed: (message: string) => `Failed to update preference. ${message}`,
  usersLoadFailed: 'Failed to load users',

  // Notification channels: a Manager's per-user switches and everyone's own panel
  channels: 'Notification Channels',
  channelsHint:
    'Who is told on which channel besides the open app. Email needs an address; push needs a subscribed device.',
  channelPush: 'Push',
  channelEmail: 'Email',
  channelFor: (channel: string, user: string) => `${channel} notifications for ${user}`,
  noEmail: 'No email address',
  channelSaved: (user: string) => `Notification channels saved for ${user}.`,
  channelFailed: (message: string) => `Failed to save the notification channels. ${message}`,
  myNotifications: 'My Notifications',
  myNotificationsHint:
    'Alerts also reach you when AlignerFlow is closed: on this device by push, and by email.',
  pushSwitch: 'Push notifications',
  pushSwitchHint: 'On the devices where you allowed notifications.',
  emailSwitch: 'Email notifications',
  emailSwitchHint: (email: string | null) =>
    email ? `Sent to ${email}.` : 'Add your email address below to receive them.',
  emailAddress: 'Email address',
  saveEmail: 'Save Email',
  emailSaved: 'Email address saved.',
  emailFailed: (message: string) => `Failed to save the email address. ${message}`,
  defaultTitle: 'AlignerFlow',

  // A Manager's reset of another user's two-step sign-in
  confirmResetTwoStep: (name: string) =>
    `Remove every authenticator and passkey of "${name}" and sign them out everywhere?`,
  twoStepReset: 'Two-step sign-in reset',
  twoStepResetText: (name: string) => `${name} can sign in with their password and set it up again.`,
  resetFailed: 'Failed to reset two-step sign-in. Please try again.',
  resetTwoStep: (name: string) => `Reset two-step sign-in of ${name}`,
} as const;
