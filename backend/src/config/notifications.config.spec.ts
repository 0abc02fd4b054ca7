import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import webpush from 'web-push';
import { ConfigError, loadConfig } from './config';
import { loadNotificationsConfig } from './notifications.config';

describe('notifications configuration', () => {
  const app = loadConfig({ BASE_PATH: '/portal/' });
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'af-config-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fails = (env: NodeJS.ProcessEnv, text: string) => {
    expect(() => loadNotificationsConfig(app, env)).toThrow(ConfigError);
    expect(() => loadNotificationsConfig(app, env)).toThrow(text);
  };

  it('defaults: generated VAPID keys, no FCM, BullMQ prefix "bull", 10 jobs at once, 1 s first retry', () => {
    expect(loadNotificationsConfig(app, {})).toMatchObject({
      basePath: '/portal/',
      vapidKeys: null,
      vapidSubject: 'mailto:admin@example.com',
      fcm: null,
      queuePrefix: 'bull',
      concurrency: 100,
      backoffMs: 1000,
    });
  });

  it('has no email channel without SMTP_URL, scans every 15 minutes with a 2-day window', () => {
    expect(loadNotificationsConfig(app, {})).toMatchObject({
      email: null,
      riskScanIntervalMs: 900_000,
      atRiskDays: 2,
    });
    expect(loadNotificationsConfig(app, { RISK_SCAN_INTERVAL_MS: '60000', AT_RISK_DAYS: '0' })).toMatchObject(
      {
        riskScanIntervalMs: 60_000,
        atRiskDays: 0,
      },
    );
    fails({ RISK_SCAN_INTERVAL_MS: '0' }, 'RISK_SCAN_INTERVAL_MS must be a positive integer');
    fails({ RISK_SCAN_INTERVAL_MS: 'often' }, 'RISK_SCAN_INTERVAL_MS must be a positive integer');
    fails({ AT_RISK_DAYS: '-1' }, 'AT_RISK_DAYS must be an integer from 0 to 365');
    fails({ AT_RISK_DAYS: '1.5' }, 'AT_RISK_DAYS must be an integer from 0 to 365');
  });

  it('reads SMTP_URL, MAIL_FROM and PUBLIC_URL, and stops on a wrong one naming it', () => {
    expect(loadNotificationsConfig(app, { SMTP_URL: 'smtps://user:secret@mail.example:465' })).toMatchObject({
      email: {
        smtpUrl: 'smtps://user:secret@mail.example:465',
        from: 'AlignerFlow <alignerflow@localhost>',
        publicUrl: `http://localhost:${app.port}/portal/`,
      },
    });
    expect(
      loadNotificationsConfig(app, {
        SMTP_URL: 'smtp://127.0.0.1:2525',
        MAIL_FROM: 'Lab <lab@example.test>',
        PUBLIC_URL: 'https://lab.example.test/app',
      }).email,
    ).toEqual({
      smtpUrl: 'smtp://127.0.0.1:2525',
      from: 'Lab <lab@example.test>',
      publicUrl: 'https://lab.example.test/app/',
    });
    fails({ SMTP_URL: 'http://mail.example' }, 'SMTP_URL must be an smtp:// or smtps:// URL');
    fails({ SMTP_URL: 'not a url' }, 'SMTP_URL must be an smtp:// or smtps:// URL');
    fails({ SMTP_URL: 'smtp://h', MAIL_FROM: 'nobody' }, 'MAIL_FROM must be an address');
    fails({ SMTP_URL: 'smtp://h', PUBLIC_URL: 'ftp://lab' }, 'PUBLIC_URL must be an http(s) URL');
    fails({ SMTP_URL: 'smtp://h', PUBLIC_URL: 'https://lab/#x' }, 'PUBLIC_URL must be an http(s) URL');
    // The message names the variable, never the credentials in it.
    expect(() => loadNotificationsConfig(app, { SMTP_URL: 'imap://u:hunter2@h' })).not.toThrow(/hunter2/);
  });

  it('takes VAPID keys from the environment, both or neither, well-formed', () => {
    const keys = webpush.generateVAPIDKeys();
    expect(
      loadNotificationsConfig(app, {
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
        VAPID_SUBJECT: 'https://lab.example',
      }),
    ).toMatchObject({ vapidKeys: keys, vapidSubject: 'https://lab.example' });
    fails({ VAPID_PUBLIC_KEY: keys.publicKey }, 'VAPID_PRIVATE_KEY is required');
    fails({ VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY is required');
    fails({ VAPID_PUBLIC_KEY: 'short', VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY must be');
    fails(
      { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.publicKey },
      'VAPID_PRIVATE_KEY must be',
    );
    fails({ VAPID_SUBJECT: 'lab@example.com' }, 'VAPID_SUBJECT must be a mailto: or https: URL');
  });

  it('reads the FCM service account at start and names the variable when it is wrong', () => {
    const file = join(dir, 'sa.json');
    writeFileSync(
      file,
      JSON.stringify({
        project_id: 'lab-123',
        client_email: 'push@lab-123.iam.gserviceaccount.com',
        private_key: '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n',
        token_uri: 'https://oauth2.example/token',
      }),
    );
    expect(loadNotificationsConfig(app, { FCM_CREDENTIALS_FILE: file }).fcm).toEqual({
      projectId: 'lab-123',
      endpoint: 'https://fcm.googleapis.com',
      serviceAccount: {
        clientEmail: 'push@lab-123.iam.gserviceaccount.com',
        privateKey: expect.stringContaining('PRIVATE KEY'),
        tokenUri: 'https://oauth2.example/token',
      },
    });
    expect(
      loadNotificationsConfig(app, {
        FCM_CREDENTIALS_FILE: file,
        FCM_PROJECT_ID: 'other',
        FCM_ENDPOINT: 'http://127.0.0.1:9/',
      }).fcm,
    ).toMatchObject({ projectId: 'other', endpoint: 'http://127.0.0.1:9' });
    fails({ FCM_PROJECT_ID: 'lab-123' }, 'FCM_CREDENTIALS_FILE is required');
    fails({ FCM_CREDENTIALS_FILE: join(dir, 'missing.json') }, 'FCM_CREDENTIALS_FILE must name a readable');
    writeFileSync(join(dir, 'bad.json'), '{"client_email": "x"}');
    fails(
      { FCM_CREDENTIALS_FILE: join(dir, 'bad.json') },
      'FCM_CREDENTIALS_FILE must be a service-account key',
    );
    fails({ FCM_CREDENTIALS_FILE: file, FCM_ENDPOINT: 'fcm.local' }, 'FCM_ENDPOINT must be an http(s) URL');
  });

  it('checks the tuning variables', () => {
    expect(loadNotificationsConfig(app, { NOTIFICATIONS_CONCURRENCY: '32' }).concurrency).toBe(32);
    fails({ NOTIFICATIONS_CONCURRENCY: '0' }, 'NOTIFICATIONS_CONCURRENCY must be a positive integer');
    fails({ NOTIFICATIONS_BACKOFF_MS: 'soon' }, 'NOTIFICATIONS_BACKOFF_MS must be a positive integer');
  });

  it('reads PUSH_ALLOWED_HOSTS as host:port entries, lower-cased, and refuses anything else', () => {
    expect(loadNotificationsConfig(app, {}).pushAllowedHosts).toEqual(new Set());
    expect(
      loadNotificationsConfig(app, {
        PUSH_ALLOWED_HOSTS: ' push.Lab.example:443, 10.0.0.5:8443 ,[FD00::5]:9443,',
      }).pushAllowedHosts,
    ).toEqual(new Set(['push.lab.example:443', '10.0.0.5:8443', '[fd00::5]:9443']));
    for (const entry of [
      'push.lab.example',
      'https://push.lab.example:443',
      'push.lab.example:443/x',
      'a@b:1',
      '0x7f.1:443',
    ])
      fails(
        { PUSH_ALLOWED_HOSTS: entry },
        `PUSH_ALLOWED_HOSTS must be a comma-separated list of host:port, got "${entry}"`,
      );
    fails({ PUSH_ALLOWED_HOSTS: '10.0.0.5:0' }, 'PUSH_ALLOWED_HOSTS has a port out of range');
  });
});
